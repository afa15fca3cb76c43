// One damaged sidecar (`.kagent/docs/x.md.json` holding garbage) used to stop the
// whole of `doc status`: no file's state was shown. Now that file is `damaged`,
// with what is wrong and how to mend it, every other file's state is shown, and
// the run ends with exit 2 (SIDECAR_DAMAGED; 2 as one damaged sidecar always was),
// so that a script sees it was not whole.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { tempDir } from '../helpers/run.js';

let s: LoggedIn;
let key: string;
let dir: string;
const ids: string[] = [];
beforeAll(async () => {
  s = await loggedInSandbox();
  ({ apiKey: key } = await s.t.newAccount({ credits: 1000 }));
  dir = tempDir('kagent-sidecars-');
  for (const title of ['Alpha', 'Beta', 'Gamma']) {
    const res = await s.t.call('POST', '/docs', { key, body: { title, markdown: `# ${title}\n` } });
    ids.push(res.body.id as string);
    const pulled = await kagent(['doc', 'pull', res.body.id as string, '-o', `${dir}/`]);
    expect(pulled.code).toBe(0);
  }
  writeFileSync(join(dir, '.kagent', 'docs', 'beta.md.json'), 'garbage\u0000{"id":');
}, 60_000);
afterAll(() => s.close());

const kagent = (argv: string[], options: Parameters<LoggedIn['kagent']>[1] = {}) =>
  s.kagent(argv, { ...options, env: { KAGENT_API_KEY: key, ...options.env } });

describe('doc status with one damaged sidecar among three', () => {
  it('piped: the two others are shown, the damaged one as `damaged`; the error names it with a hint; exit 2', async () => {
    const r = await kagent(['doc', 'status', dir]);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows).toEqual([
      ['unchanged', join(dir, 'alpha.md'), ids[0], '1', '1'],
      ['damaged', join(dir, 'beta.md'), '', '', ''],
      ['unchanged', join(dir, 'gamma.md'), ids[2], '1', '1'],
    ]);
    expect(r.stderr).toContain(`${join(dir, '.kagent', 'docs', 'beta.md.json')} is damaged`);
    expect(r.stderr).toMatch(/SIDECAR_DAMAGED/);
    expect(r.stderr).toContain(`kagent doc pull ID -o ${join(dir, 'beta.md')} --force`);
    expect(r.code).toBe(2);
  });

  it('--json: every file, the damaged one with its error', async () => {
    const r = await kagent(['doc', 'status', dir, '--json']);
    const states = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(states.map((state) => state.state)).toEqual(['unchanged', 'damaged', 'unchanged']);
    expect(states[1]).toMatchObject({
      file: join(dir, 'beta.md'),
      id: null,
      error: { code: 'USAGE', message: expect.stringContaining('is damaged') },
    });
    expect(JSON.parse(r.stderr).error.code).toBe('SIDECAR_DAMAGED');
    expect(r.code).toBe(2);
  });

  it('the damaged file alone: the same error, exit 2', async () => {
    const r = await kagent(['doc', 'status', join(dir, 'beta.md')]);
    expect(r.stdout).toBe(`damaged\t${join(dir, 'beta.md')}\t\t\t\n`);
    expect(r.stderr).toContain('is damaged: it does not say which document and revision beta.md was pulled from');
    expect(r.code).toBe(2);
  });
});
