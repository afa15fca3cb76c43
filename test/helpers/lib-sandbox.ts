// The set-up `lib upload` and `lib sync` tests share: one logged-in sandbox for
// the file, a fresh account (10 000 credits) before each test with the request
// counts reset, scratch folders removed at the end, and `kagent` run as that
// account; folders of files to upload or sync. The bindings below are live: read
// them inside tests and hooks.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { loggedInSandbox, type LoggedIn } from './logged-in.js';
import { tempDir } from './run.js';

export let s: LoggedIn;
export let key: string;
export let accountId: string;
/** Scratch folders a test made: removed when the file's tests are done. */
export const dirs: string[] = [];

/** Registers the hooks; `each` runs for every test after its account is made, before the counts are reset. */
export function useLibSandbox(each?: () => Promise<void>): void {
  beforeAll(async () => {
    s = await loggedInSandbox();
  });
  afterAll(async () => {
    await s.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    ({ apiKey: key, accountId } = await s.t.newAccount({ credits: 10_000 }));
    await each?.();
    await resetStats();
  });
}

/** `kagent ARGV…` in-process as the test's account. */
export const kagent = (argv: string[], options: Parameters<LoggedIn['kagent']>[1] = {}) =>
  s.kagent(argv, { ...options, env: { KAGENT_API_KEY: key, ...options.env } });

export async function resetStats(): Promise<void> {
  await s.t.call('DELETE', '/_sandbox/stats', { key: null });
}

/**
 * A scratch folder holding `content` (a name may hold folders: 'a/b.md'), removed when the file's tests
 * are done: `<temp>/docs`, or the temporary folder itself when `sub` is ''.
 */
export function scratchFolder(prefix: string, content: Record<string, Buffer | string>, sub = 'docs'): string {
  const dir = join(tempDir(prefix), sub);
  dirs.push(dir);
  for (const [name, data] of Object.entries(content)) writeInto(dir, name, data);
  return dir;
}

/** Writes one file of a folder, making the folders its name holds. */
export function writeInto(dir: string, name: string, data: Buffer | string): void {
  mkdirSync(join(dir, name, '..'), { recursive: true });
  writeFileSync(join(dir, name), data);
}
