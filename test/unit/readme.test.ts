// README.md is the front door: at most 250 lines, with the two commands that do
// everything on a fresh clone and the tools `npm test` needs that npm cannot
// install (the ones .ci/run installs), and an index of docs/. The reference
// lives in docs/: every relative link of the README and of docs/*.md must reach
// a file that exists, and a heading of it when the link names an anchor.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchor } from '../../src/cli/command-docs.js';
import type { CommandSpec } from '../../src/kit/define.js';
import { loadGroup } from '../../src/cli/groups.js';
import { groups } from '../../src/cli/manifest.js';
import { GLOBAL_FLAGS, HELP_FLAG, VERSION_FLAG } from '../../src/cli/global-flags.js';
import { root } from '../helpers/binary.js';

const MAX_README_LINES = 250;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

/** Lines outside fenced code blocks. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

const anchorsOf = new Map<string, Set<string>>();

/** The anchors GitHub gives a file's headings (a repeated heading gets -1, -2, …). */
function anchors(file: string): Set<string> {
  const known = anchorsOf.get(file);
  if (known) return known;
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(readFileSync(join(root, file), 'utf8'))) {
    const heading = /^#{1,6} (.+?)\s*#*$/.exec(line);
    if (!heading) continue;
    const base = anchor(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count ? `${base}-${count}` : base);
  }
  anchorsOf.set(file, result);
  return result;
}

/** Relative links of a Markdown file, outside code: [text](target), as paths from the repository root. */
function links(file: string): Array<{ target: string; path: string; hash: string | undefined }> {
  const text = prose(readFileSync(join(root, file), 'utf8'))
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [path, hash] = target.split('#') as [string, string | undefined];
      return { target, path: path === '' ? file : relative(root, normalize(join(root, dirname(file), path))), hash };
    });
}

describe('README.md', () => {
  it(`is at most ${MAX_README_LINES} lines`, () => {
    expect(readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('gives the two commands that do everything on a fresh clone', () => {
    expect(readme).toMatch(/^npm install && npm run demo\b/m);
    expect(readme).toMatch(/^npm test\b/m);
  });

  it('names the tools npm cannot install, each one .ci/run installs (bash runs .ci/run itself)', () => {
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    const installed = [...(/for pair in ([^;]+); do/.exec(ci)?.[1] ?? '').matchAll(/(\S+):(\S+)/g)].map((m) => ({
      command: m[1]!,
      pkg: m[2]!,
    }));
    expect(installed.length).toBeGreaterThan(5);
    const named = ['zsh', 'fish', 'tmux', 'script', 'less', 'man', 'groff'];
    expect(readme).toMatch(/\bbash\b/);
    for (const tool of named) {
      expect(readme, tool).toMatch(new RegExp(`\\b${tool}\\b`));
      expect(
        installed.map((entry) => entry.command),
        `.ci/run installs ${tool}`,
      ).toContain(tool);
    }
    expect(readme).toContain('bsdutils');
    expect(installed).toContainEqual({ command: 'script', pkg: 'bsdutils' });
    expect(readme).toContain('`.ci/run` installs');
  });

  it('lists every file of docs/ in its index', () => {
    const linked = new Set(links('README.md').map((link) => link.path));
    for (const file of docs) expect(linked, file).toContain(file);
  });
});

describe('links between the README and docs/', () => {
  it.each(['README.md', ...docs])(
    'every relative link of %s reaches a file, and a heading of it when it names one',
    (file) => {
      for (const link of links(file)) {
        expect(existsSync(join(root, link.path)), `${file}: ${link.target}`).toBe(true);
        if (link.hash !== undefined) expect(anchors(link.path), `${file}: ${link.target}`).toContain(link.hash);
      }
    },
  );

  it('the README links into docs/ (the reference lives there)', () => {
    expect(links('README.md').filter((link) => link.path.startsWith('docs/')).length).toBeGreaterThanOrEqual(
      docs.length,
    );
  });

  it('the anchors are the ones GitHub makes', () => {
    expect(anchor('Checking a setup: `kagent doctor`')).toBe('checking-a-setup-kagent-doctor');
    expect(anchor('Keeping state (`--state FILE`)')).toBe('keeping-state---state-file');
    expect(anchor('Proxies, the rate limit and waits')).toBe('proxies-the-rate-limit-and-waits');
  });
});

// ---------------------------------------------------------------- the examples

/** A command line split as the shell would (quotes and `\` escapes; no expansion), its trailing comment left out. */
function words(line: string): string[] {
  const result: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/\s/.test(char)) {
      if (word !== undefined) result.push(word);
      word = undefined;
    } else if (char === '#' && word === undefined) {
      break;
    } else if (/[|;&<>]/.test(char) || (char === ')' && word === undefined)) {
      break;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) result.push(word);
  return result;
}

/** Every `kagent …` command line in a file's code blocks (`$ ` prompts and `run:` steps included). */
function exampleLines(file: string): string[] {
  const lines: string[] = [];
  let block: string | undefined;
  for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
    const fence = /^\s*```(\S*)/.exec(line);
    if (fence) block = block === undefined ? fence[1]! : undefined;
    else if (block !== undefined) {
      // In a console block only the lines after a `$ ` prompt are commands; the rest is what they print.
      const at =
        block === 'console'
          ? /^\$ (kagent\s.*)$/.exec(line)
          : /(?:^\s*(?:\$ |run: )?|\$\(|\|\s*|&&\s*|;\s*|xargs\s+)(kagent\s.*)$/.exec(line);
      if (at) lines.push(at[1]!);
    }
  }
  return lines;
}

/** What is wrong with a command line against the command tree: an unknown group, subcommand or flag. */
async function problem(line: string): Promise<string | undefined> {
  const [, ...args] = words(line);
  const globals = [...GLOBAL_FLAGS, VERSION_FLAG, HELP_FLAG].flatMap((flag) => flagNames(flag.flags));
  const name = args.find((arg) => !arg.startsWith('-') && !globalValue(args, arg));
  if (name === undefined) return undefined;
  const group = groups.find((entry) => entry.name === name);
  if (!group) return `no group "${name}"`;
  let spec: CommandSpec = await loadGroup(group.name);
  const chain: CommandSpec[] = [spec];
  let rest = args.slice(args.indexOf(name) + 1);
  for (;;) {
    const next = rest.find((arg) => !arg.startsWith('-'));
    const sub =
      next === undefined
        ? undefined
        : (spec.commands ?? []).find((command) => command.name === next || command.aliases?.includes(next));
    if (!sub) break;
    spec = sub;
    chain.push(sub);
    rest = rest.slice(rest.indexOf(next!) + 1);
  }
  if (!spec.run) return `"${name}" needs a subcommand`;
  const declared = [...GLOBAL_FLAGS, VERSION_FLAG, HELP_FLAG, ...chain.flatMap((command) => command.options ?? [])];
  const known = [...globals, ...declared.flatMap((option) => flagNames(option.flags))];
  const takesValue = declared
    .filter((option) => option.flags.includes('<'))
    .flatMap((option) => flagNames(option.flags));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-') || arg === '-' || arg === '--') continue;
    const flag = arg.split('=')[0]!;
    if (!known.includes(flag))
      return `no flag ${flag} for ${['kagent', ...chain.map((command) => command.name)].join(' ')}`;
    if (takesValue.includes(flag) && !arg.includes('=')) i++;
  }
  return undefined;
}

/** '-L, --limit <n>' → ['-L', '--limit']; '--no-wait' → ['--no-wait']. */
function flagNames(flags: string): string[] {
  return flags.split(/[ ,]+/).filter((part) => part.startsWith('-'));
}

/** Whether `word` is the value of a global flag before it (`-p sandbox`). */
function globalValue(args: string[], word: string): boolean {
  const before = args[args.indexOf(word) - 1];
  return (
    before !== undefined &&
    [...GLOBAL_FLAGS].some((flag) => /[<[]/.test(flag.flags) && flagNames(flag.flags).includes(before))
  );
}

describe('the examples of the README and docs/', () => {
  it.each(['README.md', ...docs.filter((file) => file !== 'docs/commands.md')])(
    'every kagent command line in %s names a real command and only its flags',
    async (file) => {
      const lines = exampleLines(file);
      const problems: string[] = [];
      for (const line of lines) {
        const wrong = await problem(line);
        if (wrong) problems.push(`${line}: ${wrong}`);
      }
      expect(problems).toEqual([]);
    },
  );

  it('the README shows a dozen or more of them', () => {
    expect(exampleLines('README.md').length).toBeGreaterThanOrEqual(12);
  });
});
