// The man pages: generated from the command tree (the manifest's groups through
// the program's loader), so the pages in dist/man/ must be exactly what the
// current commands produce (stale pages fail here), listed in package.json's
// `man` field, well-formed for groff, and carrying every subcommand and flag
// that `--help` shows.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import type { CommandSpec } from '../../src/kit/define.js';
import { manPageFiles, manPages, roffText, shortLines } from '../../src/cli/manpages.js';
import { loadGroup } from '../../src/cli/groups.js';
import { groups } from '../../src/cli/manifest.js';
import { ensureBuilt, root } from '../helpers/binary.js';
import { runCli } from '../helpers/run.js';

const manDir = join(root, 'dist', 'man');

/** The page as man shows it: rendered by groff for an 80-column terminal, as plain text. */
function render(file: string): { text: string; warnings: string } {
  const r = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-rLL=80n', '-P', '-cbou', file], { encoding: 'utf8' });
  expect(r.error, 'groff (Debian package groff-base) must be installed').toBeUndefined();
  return { text: r.stdout.replace(/\u2010/g, '-'), warnings: r.stderr };
}

beforeAll(() => ensureBuilt());

describe('man pages', () => {
  it('dist/man holds exactly what the current command tree generates (rebuild when this fails)', async () => {
    const built = readFileSync(join(manDir, 'kagent.1'), 'utf8');
    const [, date, version] = /^\.TH "KAGENT" 1 "([^"]+)" "kagent ([^"]+)"/m.exec(built) ?? [];
    const unescape = (text = '') => text.replace(/\\-/g, '-');
    expect(unescape(version)).toBe(pkg.version);
    // The date as man(7) readers parse it: YYYY-MM-DD, not escaped (mandoc cannot read `2026\-12\-07`).
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const fresh = await manPages({ version: pkg.version, date: date as string });
    expect(readdirSync(manDir).sort()).toEqual(fresh.map((page) => page.file).sort());
    for (const page of fresh)
      expect(readFileSync(join(manDir, page.file), 'utf8'), `dist/man/${page.file} is stale: run npm run build`).toBe(
        page.text,
      );
  });

  it("package.json's man field lists every page, so a global install puts them all in place", () => {
    expect(pkg.man, 'package.json man is stale: run npm run docs').toEqual(
      manPageFiles().map((file) => `./dist/man/${file}`),
    );
    expect(manPageFiles()).toEqual(['kagent.1', ...groups.map((group) => `kagent-${group.name}.1`)]);
  });

  it('groff reads every page without a warning', () => {
    for (const file of manPageFiles()) expect(render(join(manDir, file)).warnings, file).toBe('');
  });

  it('mandoc -T lint finds nothing on any page (no warning, no style note)', () => {
    for (const file of manPageFiles()) {
      const r = spawnSync('mandoc', ['-T', 'lint', join(manDir, file)], { encoding: 'utf8' });
      expect(r.error, 'mandoc (Debian package mandoc) must be installed').toBeUndefined();
      expect(`${r.stdout}${r.stderr}`, file).toBe('');
      expect(r.status, file).toBe(0);
    }
  });

  it('examples are ASCII, so they read the same under LC_ALL=C (an emoji there vanishes)', () => {
    for (const file of manPageFiles()) {
      const page = readFileSync(join(manDir, file), 'utf8');
      const blocks = [...page.matchAll(/^\.nf\n([\s\S]*?)\n\.fi$/gm)].map((match) => match[1] as string);
      expect(blocks.length, file).toBeGreaterThan(0);
      for (const block of blocks) expect(block, file).not.toMatch(/\\\[u|\\\(|[^\x20-\x7e\n]/);
    }
  });

  it('long source lines are broken where roff joins them again: a no-fill line continues with a backslash', () => {
    const example = `.nf\n$ ${'word '.repeat(20)}end\n.fi`;
    const broken = shortLines(example, 40).split('\n');
    expect(broken.every((line) => line.length <= 40)).toBe(true);
    expect(broken.slice(1, -2).every((line) => line.endsWith(' \\'))).toBe(true);
    expect(broken.slice(1, -1).join('\n').replace(/\\\n/g, '')).toBe(`$ ${'word '.repeat(20)}end`);
    const filled = shortLines(`${'word '.repeat(15)}.end`, 30).split('\n');
    expect(filled.every((line) => line.length <= 30 && !line.startsWith(' ') && !line.startsWith('.'))).toBe(true);
    expect(filled.join(' ').replace('\\&', '')).toBe(`${'word '.repeat(15)}.end`);
  });

  it("kagent(1) has the root's flags, every group, the exit codes and the environment", async () => {
    const { text } = render(join(manDir, 'kagent.1'));
    expect(text).toMatch(/^NAME\n {7}kagent - command-line client for the knowledge-agent API/m);
    const help = (await runCli(['--help'])).stdout;
    for (const flag of help.matchAll(/^ {2}((?:-\w, )?--[\w-]+)/gm)) expect(text).toContain(flag[1]);
    for (const group of groups) expect(text).toContain(`kagent ${group.name}`);
    expect(text).toMatch(/EXIT STATUS\n[\s\S]*\n {7}130 +interrupted \(Ctrl-C\); never the --timeout deadline/);
    expect(text).toMatch(
      /ENVIRONMENT\n[\s\S]*KAGENT_API_KEY[\s\S]*HTTPS_PROXY, https_proxy[\s\S]*HTTP_PROXY, http_proxy[\s\S]*NO_PROXY, no_proxy/,
    );
  });

  it('each group page has every subcommand, argument and flag its --help shows', async () => {
    const walk = async (spec: CommandSpec, path: string[], text: string) => {
      const own = [...path, spec.name];
      const help = (await runCli([...own.slice(1), '--help'])).stdout;
      expect(help).toMatch(/^Usage: /);
      if (own.length > 2) expect(text, own.join(' ')).toContain(own.join(' '));
      // The command's own flags: its "Options:" section (the global flags are in kagent(1)).
      const options = /^Options:\n([\s\S]*?)\n\n/m.exec(help)?.[1] ?? '';
      for (const flag of options.matchAll(/^ {2}((?:-\w, )?--[\w-]+)/gm)) {
        if (flag[1] === '-h, --help') continue;
        expect(text, `${own.join(' ')} ${flag[1]}`).toContain(flag[1]);
      }
      for (const argument of spec.arguments ?? [])
        expect(text, `${own.join(' ')} <${argument.name}>`).toContain(argument.name);
      for (const sub of (spec.commands ?? []).filter((command) => !command.hidden)) await walk(sub, own, text);
    };
    for (const group of groups) {
      const { text } = render(join(manDir, `kagent-${group.name}.1`));
      expect(text).toMatch(new RegExp(`^NAME\\n {7}kagent-${group.name} - `, 'm'));
      await walk(await loadGroup(group.name), ['kagent'], text);
    }
  }, 60_000);
});

describe('roff text', () => {
  it('escapes backslashes and hyphens, guards a leading dot or quote, and writes other characters as code points', () => {
    expect(roffText('--json')).toBe('\\-\\-json');
    expect(roffText('C:\\dir')).toBe('C:\\edir');
    expect(roffText(".hidden\n'quote")).toBe("\\&.hidden\n\\&'quote");
    expect(roffText('space 📚 — ok')).toBe('space \\[u1F4DA] \\[u2014] ok');
    expect(roffText('see `kagent --help`')).toBe('see \\fBkagent \\-\\-help\\fR');
  });
});
