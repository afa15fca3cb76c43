// The project's own import graph, read from the sources: every static import,
// re-export and dynamic import('…') of a relative path, resolved to a file; a
// template import(`../x/${name}/index.ts`) reaches every file its pattern matches,
// as the build bundles it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`: erased at run time. */
  typeOnly: boolean;
  /** import('…'): loaded when reached, not when the importer loads. */
  dynamic: boolean;
}

const PATTERNS: Array<[RegExp, boolean]> = [
  [/^\s*import\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm, false],
  [/^\s*export\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm, false],
  [/^\s*import\s+()['"]([^'"]+)['"]/gm, false],
  [/\bimport\(()\s*['"]([^'"]+)['"]\s*\)/g, true],
];

export function sourceFiles(root: string, dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(root, path));
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  return out.sort();
}

const TEMPLATE_IMPORT = /\bimport\(\s*`([^`]+)`\s*\)/g;

/** The files among `files` that a template import's path, relative to `from`, matches (each `${…}` one path segment). */
export function templateTargets(from: string, template: string, files: string[]): string[] {
  const marker = '\0';
  const path = join(dirname(from), template.replace(/\$\{[^}]*\}/g, marker));
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(marker, '[^/]+');
  const pattern = new RegExp(`^${escaped}$`);
  return files.filter((file) => pattern.test(file));
}

export function importEdges(root: string, files: string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(TEMPLATE_IMPORT))
      for (const to of templateTargets(file, match[1] as string, files))
        edges.push({ from: file, to, typeOnly: false, dynamic: true });
    for (const [pattern, dynamic] of PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const specifier = match[2] as string;
        if (!specifier.startsWith('.')) continue;
        const to = relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts');
        edges.push({ from: file, to, typeOnly: match[1] !== undefined && match[1] !== '', dynamic });
      }
    }
  }
  return edges;
}

/** Cycles among the edges given (each as the list of files, first repeated last). */
export function cycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === 'open') found.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of next.keys()) if (!state.has(file)) visit(file);
  return found;
}
