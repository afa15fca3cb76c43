// The set-up the document-as-files tests (`doc pull`, `doc push`, `doc status`)
// share: one logged-in sandbox for the file, before each test a fresh account
// (1 000 credits) and a scratch folder, `kagent` run as that account, and the
// documents made and read on the service directly. The bindings below are live:
// read them inside tests and hooks.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { loggedInSandbox, type LoggedIn } from './logged-in.js';
import { tempDir } from './run.js';

export let s: LoggedIn;
export let key: string;
/** The test's scratch folder. */
export let dir: string;

/** Registers the hooks; each test's folder is a fresh temporary one named with `prefix`. */
export function useDocSandbox(prefix: string): void {
  beforeAll(async () => {
    s = await loggedInSandbox();
  });
  afterAll(() => s.close());
  beforeEach(async () => {
    ({ apiKey: key } = await s.t.newAccount({ credits: 1000 }));
    dir = tempDir(prefix);
  });
}

/** `kagent ARGV…` in-process as the test's account. */
export const kagent = (argv: string[], options: Parameters<LoggedIn['kagent']>[1] = {}) =>
  s.kagent(argv, { ...options, env: { KAGENT_API_KEY: key, ...options.env } });

/** A document made on the service (201 expected): its id and revision. */
export async function createDoc(body: Record<string, unknown>): Promise<{ id: string; revision: number }> {
  const res = await s.t.call('POST', '/docs', { key, body });
  expect(res.status).toBe(201);
  return res.body;
}

/** A document as the service holds it now. */
export const getDoc = async (id: string) => (await s.t.call('GET', `/docs/${id}`, { key })).body;
