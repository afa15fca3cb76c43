// `kagent sandbox` writes a profile so that `kagent -p sandbox …` reaches it. A
// saved profile named `sandbox` that the sandbox did not write (a real staging
// profile, say) is not replaced behind the user's back: a terminal is asked
// (default no), anywhere else it is refused (exit 2) with a hint naming
// --profile NAME and --no-save-profile, before the sandbox starts. A profile the
// sandbox saved itself is replaced as before (the demo, the tests, a restart).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { runCli, tempDir, type RunCliOptions } from '../helpers/run.js';

const staging = { baseUrl: 'https://staging.example.com/api/v1', apiKey: 'kak_staging_secret' };

function configWithStaging(): string {
  const dir = tempDir('kagent-sandbox-profile-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { sandbox: staging } }), { mode: 0o600 });
  return dir;
}

const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

/** Runs `kagent sandbox …`; once it prints its first line (it is listening), it is stopped like Ctrl-C. */
async function sandbox(args: string[], options: RunCliOptions) {
  const controller = new AbortController();
  let printed = '';
  const stdout = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        printed += chunk.toString();
        controller.abort();
        callback();
      },
    }),
    { isTTY: options.tty ?? false, columns: 80 },
  );
  const r = await runCli(['sandbox', '--port', '0', '--quiet', '--rate-limit', '0', ...args], {
    ...options,
    stdout,
    signal: controller.signal,
  });
  return { ...r, stdout: printed };
}

describe('a saved profile named sandbox that the sandbox did not write', () => {
  it('piped: refused before the sandbox starts (exit 2), hint naming --profile NAME and --no-save-profile, profile kept', async () => {
    const dir = configWithStaging();
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const r = await sandbox(['--json'], { configDir: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toEqual({
      code: 'USAGE',
      message:
        'refusing to replace the saved profile "sandbox" (https://staging.example.com/api/v1) without confirmation: pass --yes (cannot prompt: stdin is not a terminal)',
      hint: 'save the sandbox under another name with --profile NAME, or not at all with --no-save-profile',
    });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('on a terminal: asked (default no); "no" keeps the profile and starts nothing', async () => {
    const dir = configWithStaging();
    const r = await sandbox([], { configDir: dir, tty: true, answers: [false] });
    expect(r.prompts).toEqual([
      'A profile "sandbox" (https://staging.example.com/api/v1) is saved and was not written by kagent sandbox. Replace it with this sandbox?',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(config(dir).profiles.sandbox).toEqual(staging);
  });

  it('on a terminal, "yes" replaces it; --yes replaces it anywhere', async () => {
    for (const run of [
      (dir: string) => sandbox([], { configDir: dir, tty: true, answers: [true] }),
      (dir: string) => sandbox(['--json', '--yes'], { configDir: dir }),
    ]) {
      const dir = configWithStaging();
      const r = await run(dir);
      expect(r.code).toBe(0);
      expect(config(dir).profiles.sandbox).toMatchObject({ baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/) });
    }
  });

  it('--no-save-profile starts, and --profile NAME saves under that name; the staging profile is untouched', async () => {
    const dir = configWithStaging();
    const none = await sandbox(['--json', '--no-save-profile'], { configDir: dir });
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout).profile).toBeNull();
    const named = await sandbox(['--json', '--profile', 'local'], { configDir: dir });
    expect(named.code).toBe(0);
    const started = JSON.parse(named.stdout);
    expect(started.profile).toBe('local');
    expect(config(dir).profiles).toEqual({
      sandbox: staging,
      local: { baseUrl: started.baseUrl, apiKey: started.apiKey, rateLimit: 60_000, sandbox: true },
    });
  });

  it('KAGENT_PROFILE does not name the profile written (a shell working with a real profile keeps it)', async () => {
    const dir = configWithStaging();
    const r = await sandbox(['--json'], { configDir: dir, env: { KAGENT_PROFILE: 'sandbox' } });
    expect(r.code).toBe(2);
    expect(config(dir).profiles.sandbox).toEqual(staging);
  });
});

describe('a profile the sandbox saved itself', () => {
  it('is replaced without a question on the next start, piped or not', async () => {
    const dir = tempDir('kagent-sandbox-profile-');
    const first = await sandbox(['--json'], { configDir: dir });
    expect(first.code).toBe(0);
    const second = await sandbox(['--json'], { configDir: dir });
    expect(second.code).toBe(0);
    expect(config(dir).profiles.sandbox.baseUrl).toBe(JSON.parse(second.stdout).baseUrl);
  });

  it('stops being the sandbox’s once something else writes its URL or key (auth login, config set)', async () => {
    const dir = tempDir('kagent-sandbox-profile-');
    expect((await sandbox(['--json'], { configDir: dir })).code).toBe(0);
    await writeProfile(dir, 'sandbox', staging);
    expect(config(dir).profiles.sandbox).toEqual({ ...staging, rateLimit: 60_000 });
    const r = await sandbox(['--json'], { configDir: dir });
    expect(r.code).toBe(2);
    expect(config(dir).profiles.sandbox).toEqual({ ...staging, rateLimit: 60_000 });
  });
});
