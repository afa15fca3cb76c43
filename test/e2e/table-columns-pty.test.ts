// Tables on a real terminal keep what tells something: `conversation list` at
// 40, 80 and 200 columns with two finished conversations (CHANNEL always "api",
// RUNNING empty): those columns go first, the title is never the one dropped,
// and no line is wider than the terminal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/io/width.js';
import { plain, runInPty } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';

let s: BinarySandbox;
let env: Record<string, string>;

beforeAll(async () => {
  s = await binaryAgainstSandbox('kagent-cols-');
  const { t } = s;
  for (const text of ['what did I save about vector search and HNSW graphs?', 'how do I keep a sourdough starter?'])
    expect((await t.call('POST', '/conversations/messages', { body: { text } })).status).toBe(202);
  await t.advance(30_000);
  env = { ...s.env, KAGENT_PAGER: 'cat' };
});
afterAll(() => s?.close());

describe.each([40, 80, 200])('conversation list at %i columns', (cols) => {
  it('the title stays; an always-"api" CHANNEL and an empty RUNNING go first', async () => {
    const run = await runInPty(['conversation', 'list'], { env, cols });
    expect(run.code).toBe(0);
    const lines = plain(run.output).trimEnd().split('\n');
    const header = lines.find((line) => /^ID\b/.test(line)) ?? '';
    expect(header).toMatch(/^ID +TITLE\b/);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(cols);
    if (cols < 200) expect(header).not.toMatch(/CHANNEL|RUNNING/);
    else expect(header).toMatch(/CHANNEL/);
    if (cols >= 80) expect(plain(run.output)).toContain('what did I save about vector search');
  });
});
