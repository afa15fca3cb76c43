// A terminal nobody sized: a pseudo-terminal of 0 columns and 0 rows (a container's
// `script`, a CI runner's pty) with COLUMNS=0. Nothing may wrap at width 0 — one
// character a line — on stdout or stderr: kagent writes as it would at 80 columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plain, runInPty } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';

let s: BinarySandbox;
beforeAll(async () => {
  s = await binaryAgainstSandbox('kagent-unsized-');
});
afterAll(async () => {
  await s?.close();
});

/** `kagent ARGS` in a pty of 0 × 0: what it showed, escape sequences and carriage returns removed. */
async function unsized(args: string[]): Promise<{ code: number | null; text: string }> {
  const run = await runInPty(args, { env: s.env, cols: 0, rows: 0 });
  return { code: run.code, text: plain(run.output) };
}

describe('a pseudo-terminal of width 0', () => {
  it('a note on stderr (an empty library) is one line, not one character a line', async () => {
    const r = await unsized(['lib', 'list']);
    expect(r.code).toBe(0);
    expect(r.text).toMatch(/Nothing in the library/);
    expect(r.text.split('\n').filter((line) => line.length === 1)).toEqual([]);
  });

  it('an error and its hint read whole (exit 4)', async () => {
    const r = await unsized(['doc', 'show', 'doc_missing00']);
    expect(r.code).toBe(4);
    expect(r.text).toMatch(/error: .*doc_missing00/);
    expect(r.text.split('\n').filter((line) => line.length === 1)).toEqual([]);
  });

  it('an item on stdout is laid out as at 80 columns', async () => {
    const r = await unsized(['me']);
    expect(r.code).toBe(0);
    expect(r.text).toMatch(/Plan\s+\S/);
    expect(r.text.split('\n').filter((line) => line.length === 1)).toEqual([]);
    expect(Math.max(...r.text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });
});
