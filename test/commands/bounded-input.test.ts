// Every file or stdin input is read only up to its bound plus one, then
// refused with exit 2 naming the bound, before anything is sent:
// `doc create/update --file`, `doc edit --ops`, `agent memory --file`,
// `api --input` and `api -F key=@file`. Text at the bound itself goes through.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputBounds, readBounded } from '../../src/io/input.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { tempDir } from '../helpers/run.js';

let s: LoggedIn;
let dir: string;

beforeAll(async () => {
  s = await loggedInSandbox();
  dir = tempDir('kagent-bounded-');
});
afterAll(() => s.close());

async function docCount(): Promise<number> {
  return (await s.t.call('GET', '/docs', { query: { limit: 100 } })).body.items.length;
}

describe('readBounded', () => {
  it('stops pulling from the source once the bound is passed', async () => {
    let pulled = 0;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const endless = Readable.from(
      (function* () {
        for (;;) {
          pulled += chunk.length;
          yield chunk;
        }
      })(),
    );
    const io = { stdin: endless, stdinIsTTY: false } as never;
    await expect(readBounded({ io }, '-', '--file', { maxBytes: 1_000_000, what: 'a test bound' })).rejects.toThrow(
      '--file (stdin): more than 1,000,000 bytes (a test bound); nothing was sent',
    );
    expect(pulled).toBeLessThanOrEqual(1_000_000 + 2 * chunk.length);
  });

  it('reads at most 4 bytes a character against a character bound', async () => {
    const io = (text: string) => ({ stdin: Readable.from([Buffer.from(text)]), stdinIsTTY: false }) as never;
    // 5 emoji are 20 bytes: within 5 characters; one byte more cannot be.
    expect(await readBounded({ io: io('📚📚📚📚📚') }, '-', '--file', { maxChars: 5, what: 'five' })).toBe(
      '📚📚📚📚📚',
    );
    await expect(readBounded({ io: io('📚📚📚📚📚a') }, '-', '--file', { maxChars: 5, what: 'five' })).rejects.toThrow(
      '--file (stdin): more than 5 characters (five); nothing was sent',
    );
  });

  it('refuses a file one byte over the bound and takes one at it', async () => {
    const path = join(dir, 'big.txt');
    writeFileSync(path, 'x'.repeat(3_000_001));
    const io = { stdin: Readable.from([]), stdinIsTTY: false } as never;
    await expect(readBounded({ io }, path, '--input', { maxBytes: 3_000_000, what: 'cap' })).rejects.toMatchObject({
      exitCode: 2,
    });
    expect((await readBounded({ io }, path, '--input', { maxBytes: 3_000_001, what: 'cap' })).length).toBe(3_000_001);
  });
});

describe('the commands', () => {
  it('doc create --file -: the body limit; exactly at it is created, one more is refused with exit 2 and nothing created', async () => {
    const { docBody } = await inputBounds();
    expect(docBody.maxChars).toBe(500_000);
    const before = await docCount();
    const over = await s.kagent(['doc', 'create', '--title', 'Big', '--file', '-'], { stdin: 'a'.repeat(500_001) });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('--file must be at most 500000 characters (got 500001)');
    // Past the byte ceiling (4 bytes × 500,000) reading stops: the text is refused without being read whole.
    const wide = await s.kagent(['doc', 'create', '--title', 'Big', '--file', '-'], { stdin: '📚'.repeat(500_001) });
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain(
      "error: --file (stdin): more than 500,000 characters (the service's limit for a document body); nothing was sent",
    );
    expect(await docCount()).toBe(before);
    const at = await s.kagent(['doc', 'create', '--title', 'Exactly', '--file', '-', '--json'], {
      stdin: 'a'.repeat(500_000),
    });
    expect(at.code).toBe(0);
    expect(await docCount()).toBe(before + 1);
  });

  it('doc update --file PATH: the same bound for a file', async () => {
    const doc = (await s.t.call('POST', '/docs', { body: { title: 'Small', markdown: 'small' } })).body;
    const path = join(dir, 'body.md');
    writeFileSync(path, 'b'.repeat(2_000_001));
    const r = await s.kagent(['doc', 'update', doc.id, '--file', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--file ${path}: more than 500,000 characters`);
    expect((await s.t.call('GET', `/docs/${doc.id}`)).body.body).toBe('small');
  });

  it('doc edit --ops -: refused past 8 MiB of edits, nothing edited', async () => {
    const doc = (await s.t.call('POST', '/docs', { body: { title: 'Ops', markdown: 'before' } })).body;
    const ops = JSON.stringify([{ op: 'append', content: 'x'.repeat(8 * 1024 * 1024) }]);
    const r = await s.kagent(['doc', 'edit', doc.id, '--ops', '-'], { stdin: ops });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--ops (stdin): more than 8,388,608 bytes (the limit for an --ops file of edits)');
    expect((await s.t.call('GET', `/docs/${doc.id}`)).body.body).toBe('before');
  });

  it('agent memory --file -: past 4 bytes × the memory limit, refused before the agent is even read', async () => {
    const before = (await s.t.call('GET', '/agent')).body.memory;
    const r = await s.kagent(['agent', 'memory', '--file', '-'], { stdin: 'm'.repeat(80_001) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "--file (stdin): more than 20,000 characters (the service's limit for the agent's memory)",
    );
    expect((await s.t.call('GET', '/agent')).body.memory).toBe(before);
  });

  it('api --input - and -F key=@file: a 16 MiB cap', async () => {
    const big = `"${'z'.repeat(16 * 1024 * 1024)}"`;
    const input = await s.kagent(['api', 'POST', '/docs', '--input', '-'], { stdin: big });
    expect(input.code).toBe(2);
    expect(input.stderr).toContain(
      '--input (stdin): more than 16,777,216 bytes (the limit for a request body kagent sends)',
    );
    const path = join(dir, 'field.txt');
    writeFileSync(path, big);
    const field = await s.kagent(['api', 'POST', '/docs', '-F', `markdown=@${path}`]);
    expect(field.code).toBe(2);
    expect(field.stderr).toContain(`-F markdown=@ ${path}: more than 16,777,216 bytes`);
  });
});
