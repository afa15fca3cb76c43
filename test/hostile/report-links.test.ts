// `--report FILE` of `lib upload` and `lib sync` replaces what is at FILE and
// never writes through a symbolic link there: `ln -s victim.conf report.xml`
// leaves victim.conf as it was, and report.xml becomes the report.
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { dirs, kagent, key, s, useLibSandbox } from '../helpers/lib-sandbox.js';
import { tempDir } from '../helpers/run.js';

useLibSandbox(async () => {
  await s.t.call('POST', '/spaces', { key, body: { name: 'S' } });
});

it.each([
  ['lib upload', ['lib', 'upload']],
  ['lib sync', ['lib', 'sync']],
])('%s --report through a symbolic link: the link is replaced, its target untouched', async (_verb, verb) => {
  const root = tempDir('kagent-report-');
  dirs.push(root);
  const dir = join(root, 'docs');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.md'), '# A\n');
  const victim = join(root, 'victim.conf');
  writeFileSync(victim, 'secret = keep me\n');
  const report = join(root, 'report.xml');
  symlinkSync(victim, report);
  const r = await kagent([...verb, dir, '--space', 'S', '--report', report]);
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(victim, 'utf8')).toBe('secret = keep me\n');
  expect(lstatSync(report).isSymbolicLink()).toBe(false);
  expect(readFileSync(report, 'utf8')).toMatch(/^<\?xml[^]*<testcase name="[^"]*a\.md"/);
});
