// The first ten minutes, on real pseudo-terminals at 40 and 80 columns (the built
// binary): a mistake with --json / --jq reads as text at a terminal, with the field
// meant; `auth login` on a logged-in profile says who is logged in where and asks
// before replacing; `config delete` asks, and deleting the current profile leaves
// the hint that names the one left.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { ensureBuilt, plain, runInPty, unwrap } from '../helpers/binary.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const WIDTHS = [40, 80];

let t: TestSandbox;
let home: string;
beforeAll(async () => {
  ensureBuilt();
  t = await startTestSandbox();
  home = mkdtempSync(join(tmpdir(), 'kagent-first-'));
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(home, { recursive: true, force: true });
});

let dirs = 0;
async function loggedIn(): Promise<Record<string, string>> {
  const configDir = join(home, `config-${++dirs}`);
  await writeProfile(configDir, 'default', { baseUrl: t.baseUrl, apiKey: t.apiKey }, { makeCurrent: true });
  return { HOME: home, KAGENT_CONFIG_DIR: configDir, KAGENT_CACHE_DIR: join(home, 'cache') };
}

/** The screen's text joined back into one line per message (a narrow terminal wraps them). */
// kagent's own wrapping undone, then lines the prompt library broke joined.
const unwrapped = (output: string) => unwrap(plain(output)).replace(/\n(?!error:|hint:|✓|\? )/g, ' ');

describe.each(WIDTHS)('at %i columns', (cols) => {
  it('--json with a mistyped field and --jq with bad syntax: text errors, not JSON, exit 2', async () => {
    const env = await loggedIn();
    const field = await runInPty(['space', 'list', '--json', 'nme'], { env, cols });
    expect(field.code).toBe(2);
    expect(plain(field.output)).not.toContain('{"error"');
    expect(unwrapped(field.output)).toContain('error: unknown field for --json: nme (did you mean "name"?) (USAGE)');
    expect(unwrapped(field.output)).toMatch(/hint: known fields: id, name, /);
    const jq = await runInPty(['me', '--jq', '.bad syntax'], { env, cols });
    expect(jq.code).toBe(2);
    expect(plain(jq.output)).toMatch(/^error: /m);
    expect(plain(jq.output)).not.toContain('{"error"');
  });

  it('auth login on a logged-in profile: who and where, then a question; no keeps the login', async () => {
    const env = await loggedIn();
    const before = readFileSync(join(env.KAGENT_CONFIG_DIR!, 'config.json'), 'utf8');
    const run = await runInPty(['auth', 'login'], {
      env,
      cols,
      steps: [{ wait: /Replace/, type: 'n\r' }],
    });
    expect(run.typed).toBe(1);
    expect(run.code).toBe(1);
    expect(unwrapped(run.output)).toContain(`Profile "default" is logged in to ${t.baseUrl} as you@sandbox.test`);
    expect(plain(run.output)).toContain('Cancelled.');
    expect(readFileSync(join(env.KAGENT_CONFIG_DIR!, 'config.json'), 'utf8')).toBe(before);
  });

  it('config delete asks; yes deletes the current profile and the next command names the one left', async () => {
    const env = await loggedIn();
    await writeProfile(env.KAGENT_CONFIG_DIR, 'sandbox', { baseUrl: t.baseUrl, apiKey: t.apiKey });
    const run = await runInPty(['config', 'delete', 'default'], {
      env,
      cols,
      steps: [{ wait: /profile\?/, type: 'y\r' }],
    });
    expect(run.code).toBe(0);
    expect(unwrapped(run.output)).toContain('✓ Deleted profile "default"; no profile is current now');
    const me = await runInPty(['me'], { env, cols });
    expect(me.code).toBe(3);
    expect(unwrapped(me.output)).toContain('`kagent config use sandbox`, or add `-p sandbox` to the command');
  });
});
