// `kagent lib text` on a real terminal (the built binary in a pseudo-terminal):
// wrapped at word boundaries to the terminal's width at 40, 80 and 200 columns,
// and long text goes through the pager; piped, the text as it is with one final
// newline.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plain, runInPty } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';
import type { TestSandbox } from '../helpers/sandbox.js';

let s: BinarySandbox;
let t: TestSandbox;
let home: string;
let env: Record<string, string>;
let id: string;

// Paragraphs of about 1100 characters, one line apiece (no newline to break them for the terminal); under one chunk in all.
const words = Array.from({ length: 60 }, (_, i) => `harbour${i % 7 === 0 ? '-expansion' : ''} budget${i}`).join(' ');
const TEXT = Array.from({ length: 6 }, (_, i) => `Paragraph ${i + 1}: ${words}.`).join('\n\n');

beforeAll(async () => {
  s = await binaryAgainstSandbox('kagent-libtext-');
  ({ t, home, env } = s);
  const res = await t.call('POST', '/library/files', {
    raw: TEXT,
    headers: { 'content-type': 'application/octet-stream', 'x-file-name': 'report.txt' },
  });
  expect(res.status).toBe(201);
  id = res.body.item.id;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('lib text on a terminal', () => {
  for (const cols of [40, 80, 200]) {
    it(`at ${cols} columns: wrapped at word boundaries to the width, no word cut, the text all there`, async () => {
      const run = await runInPty(['lib', 'text', id], { env: { ...env, KAGENT_PAGER: 'cat' }, cols, rows: 500 });
      expect(run.code).toBe(0);
      const lines = plain(run.output).replace(/\r/g, '').replace(/\n+$/, '').split('\n');
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(cols);
      // Wrapped only between words: the words, in order, are the text's.
      expect(lines.join(' ').split(/\s+/).filter(Boolean)).toEqual(TEXT.split(/\s+/));
      // Lines are filled: the next word would not have fitted on the line before.
      for (let i = 1; i < lines.length; i++) {
        const [prev, line] = [lines[i - 1] as string, lines[i] as string];
        if (prev === '' || line === '') continue;
        expect(prev.length + 1 + (line.split(' ')[0] as string).length, `${prev}|${line}`).toBeGreaterThan(cols);
      }
    });
  }

  it('long text goes through the pager (taller than the screen once wrapped); piped, never, and as is', async () => {
    const log = join(home, 'pager.log');
    const recorder = join(home, 'recorder.sh');
    writeFileSync(recorder, `#!/bin/sh\necho start >> "$PAGER_LOG"\ncat\n`);
    chmodSync(recorder, 0o755);
    const paged = await runInPty(['lib', 'text', id], {
      env: { ...env, KAGENT_PAGER: recorder, PAGER_LOG: log },
      cols: 80,
      rows: 24,
    });
    expect(paged.code).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('start\n');
    expect(plain(paged.output)).toContain('Paragraph 6:');

    rmSync(log, { force: true });
    const piped = await runInPty([], {
      env: { ...env, KAGENT_PAGER: recorder, PAGER_LOG: log, OUT: join(home, 'out.txt') },
      cols: 40,
      shell: `eval "$KAGENT lib text ${id}" > "$OUT"`,
    });
    expect(piped.code).toBe(0);
    expect(readFileSync(join(home, 'out.txt'), 'utf8')).toBe(`${TEXT}\n`);
    expect(() => readFileSync(log, 'utf8')).toThrow();
  });
});
