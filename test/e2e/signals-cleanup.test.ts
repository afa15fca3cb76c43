// SIGTERM and SIGHUP stop kagent the way Ctrl-C does: what the run holds is
// cleaned up — the temporary copy of stdin made by `lib upload -` — and the
// exit status is 128 + the signal (143, 129; Ctrl-C 130).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, root } from '../helpers/binary.js';
import { tempDir } from '../helpers/run.js';

beforeAll(() => ensureBuilt());

async function uploadStdinThen(
  signal: NodeJS.Signals,
): Promise<{ code: number | null; left: string[]; seen: boolean }> {
  const tmp = tempDir('kagent-tmp-');
  const configDir = tempDir('kagent-config-');
  const child = spawn(process.execPath, [bin, 'lib', 'upload', '-', '--name', 'notes.md'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: configDir,
      KAGENT_CONFIG_DIR: configDir,
      TMPDIR: tmp,
      KAGENT_API_KEY: 'ka_test_signals',
      KAGENT_BASE_URL: 'http://127.0.0.1:9/api/v1',
    },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // stdin stays open: kagent is still copying it when the signal comes.
  child.stdin.write('# Notes\n\nstill coming…\n');
  let seen = false;
  for (let i = 0; i < 200 && !seen; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    seen = readdirSync(tmp).some((name) => name.startsWith('kagent-stdin-'));
  }
  child.kill(signal);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, left: readdirSync(tmp), seen };
}

describe('the temporary copy of stdin', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ] as const)(
    'is removed on %s (exit %i)',
    async (signal, exit) => {
      const r = await uploadStdinThen(signal);
      expect(r.seen).toBe(true);
      expect(r.left).toEqual([]);
      expect(r.code).toBe(exit);
    },
    20_000,
  );
});
