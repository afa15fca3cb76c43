// textFlow: plain text in pieces, wrapped on a terminal, as is when piped,
// ending with exactly one newline — whatever the pieces' boundaries.
import { describe, expect, it } from 'vitest';
import { textFlow } from '../../src/io/text-flow.js';

function flow(pieces: string[], width: number | undefined): string {
  const f = textFlow(width);
  return pieces.map((piece) => f.push(piece)).join('') + f.end();
}

/** Every way of cutting `text` into two pieces, and into pieces of one character. */
function cuts(text: string): string[][] {
  const all = [[text], [...text]];
  for (let i = 1; i < text.length; i++) all.push([text.slice(0, i), text.slice(i)]);
  return all;
}

describe('textFlow', () => {
  it('piped: the text as is, ending with exactly one newline, however it is cut', () => {
    for (const [text, out] of [
      ['no newline', 'no newline\n'],
      ['one\n', 'one\n'],
      ['many\n\n\n', 'many\n'],
      ['a\n\nb\n\n', 'a\n\nb\n'],
      ['\nlead', '\nlead\n'],
    ] as const) {
      for (const pieces of cuts(text)) expect(flow(pieces, undefined), JSON.stringify(pieces)).toBe(out);
    }
    expect(flow([], undefined)).toBe('');
    expect(flow(['', ''], undefined)).toBe('');
  });

  it('terminal: wrapped at word boundaries to the width, lines whole across pieces, one final newline', () => {
    const text = 'the harbour expansion budget review\nsecond line here\n\n';
    const expected = 'the harbour\nexpansion budget\nreview\nsecond line here\n';
    for (const pieces of cuts(text)) expect(flow(pieces, 16), JSON.stringify(pieces)).toBe(expected);
    expect(flow(['word '.repeat(10).trim()], 12)).toBe('word word\nword word\nword word\nword word\nword word\n');
  });
});
