// The set-up of the contract tests whose lists must start empty: one sandbox for
// the test file and a fresh account before each test. The bindings below are
// live: read them inside tests and hooks.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startTestSandbox, type TestSandbox } from './sandbox.js';

export let t: TestSandbox;
/** The test's own account: its key and id. */
export let key: string;
export let accountId: string;

/** Registers the hooks. */
export function useAccountPerTest(): void {
  beforeAll(async () => {
    t = await startTestSandbox();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    ({ apiKey: key, accountId } = await t.newAccount());
  });
}
