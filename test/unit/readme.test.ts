// README.md is the front door: at most 250 lines, with the two commands that do
// everything on a fresh clone and the tools `npm test` needs that npm cannot
// install (the ones .ci/run installs), and an index of docs/. The reference
// lives in docs/: every relative link of the README and of docs/*.md must reach
// a file that exists, and a heading of it when the link names an anchor.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchor } from '../../src/command-docs.js';
import { root } from '../helpers/binary.js';

const MAX_README_LINES = 250;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);

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
    const installed = [...(/for pair in ([^;]+); do/.exec(ci)?.[1] ?? '').matchAll(/(\S+):(\S+)/g)].map((m) => ({ command: m[1]!, pkg: m[2]! }));
    expect(installed.length).toBeGreaterThan(5);
    const named = ['zsh', 'fish', 'tmux', 'script', 'less', 'man', 'groff'];
    expect(readme).toMatch(/\bbash\b/);
    for (const tool of named) {
      expect(readme, tool).toMatch(new RegExp(`\\b${tool}\\b`));
      expect(installed.map((entry) => entry.command), `.ci/run installs ${tool}`).toContain(tool);
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
  it.each(['README.md', ...docs])('every relative link of %s reaches a file, and a heading of it when it names one', (file) => {
    for (const link of links(file)) {
      expect(existsSync(join(root, link.path)), `${file}: ${link.target}`).toBe(true);
      if (link.hash !== undefined) expect(anchors(link.path), `${file}: ${link.target}`).toContain(link.hash);
    }
  });

  it('the README links into docs/ (the reference lives there)', () => {
    expect(links('README.md').filter((link) => link.path.startsWith('docs/')).length).toBeGreaterThanOrEqual(docs.length);
  });

  it('the anchors are the ones GitHub makes', () => {
    expect(anchor('Checking a setup: `kagent doctor`')).toBe('checking-a-setup-kagent-doctor');
    expect(anchor('Keeping state (`--state FILE`)')).toBe('keeping-state---state-file');
    expect(anchor('Proxies, the rate limit and waits')).toBe('proxies-the-rate-limit-and-waits');
  });
});
