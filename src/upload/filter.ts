// Which found files an upload or a sync may send: the user's --exclude and
// --include patterns, and kagent's own files, which never leave the machine.
//
// Patterns are read as `aws s3 sync` reads them: every file is in unless a
// pattern says otherwise, and the last pattern that matches a path decides.
// A pattern without a "/" matches a file's name at any depth (`*.tmp`); one
// with a "/" matches its path under the folder (`drafts/**`, `api/*.md`).
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { Minimatch } from 'minimatch';
import { defaultCacheDir } from '../config/cache-dir.js';
import { configDir } from '../config/paths.js';

export interface FilterRule {
  kind: 'exclude' | 'include';
  pattern: string;
}

export interface PathFilter {
  rules: FilterRule[];
  /** Whether the file at `rel` (its path under the folder, with "/") is to be sent. */
  allows(rel: string): boolean;
}

let given = 0;

/**
 * One --exclude or --include value as read from the command line. Values are read in the order they were
 * typed, so each carries its place: the two flags' lists, merged by it, give the rules in that order.
 */
export function filterRule(kind: FilterRule['kind'], pattern: string): FilterRule & { order: number } {
  return { kind, pattern, order: given++ };
}

/** The rules of --exclude and --include, in the order they were given. */
export function orderedRules(...lists: Array<Array<FilterRule & { order: number }> | undefined>): FilterRule[] {
  return lists
    .flatMap((list) => list ?? [])
    .sort((a, b) => a.order - b.order)
    .map(({ kind, pattern }) => ({ kind, pattern }));
}

export function pathFilter(rules: FilterRule[]): PathFilter {
  const matchers = rules.map((rule) => ({
    kind: rule.kind,
    matcher: new Minimatch(rule.pattern, { dot: true, matchBase: !rule.pattern.includes('/') }),
  }));
  return {
    rules,
    allows(rel) {
      let allowed = true;
      for (const { kind, matcher } of matchers) if (matcher.match(rel)) allowed = kind === 'include';
      return allowed;
    },
  };
}

/** `--exclude 'a' --include 'b'`: the rules as they would be typed (for --dry-run's note). */
export function rulesText(rules: FilterRule[]): string {
  return rules.map((r) => `--${r.kind} ${JSON.stringify(r.pattern)}`).join(' ');
}

/**
 * The real paths of kagent's own config folder (the profiles and their API keys) and cache folder:
 * no file inside them is ever sent, whatever path or link leads there.
 */
export function ownPaths(env: NodeJS.ProcessEnv): string[] {
  const paths: string[] = [];
  for (const dir of [configDir(env), defaultCacheDir(env)]) {
    const absolute = resolve(dir);
    paths.push(absolute);
    const real = realPath(absolute);
    if (real !== undefined && real !== absolute) paths.push(real);
  }
  return paths;
}

/** The real path (every link resolved), or undefined when there is none (no such file, a loop). */
export function realPath(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** `path` is `dir` or lies under it (both absolute and real). */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}
