import { describe, expect, it } from 'vitest';
import { keepOnlyStyling } from '../../src/io/markdown.js';
import { sanitize, sanitizeDeep, sanitizeLine } from '../../src/io/sanitize.js';

const ESC = '\x1b';

describe('sanitize', () => {
  it.each([
    ['CSI colour', `${ESC}[31mred${ESC}[0m`, 'red'],
    ['CSI cursor movement and erase', `a${ESC}[2J${ESC}[1;1Hb${ESC}[?25l`, 'ab'],
    ['OSC window title ended by BEL', `${ESC}]0;pwned\x07title`, 'title'],
    ['OSC 8 hyperlink ended by ST', `${ESC}]8;;https://evil.test${ESC}\\click${ESC}]8;;${ESC}\\`, 'click'],
    ['OSC 52 clipboard write', `${ESC}]52;c;ZXZpbA==\x07x`, 'x'],
    ['DCS string', `${ESC}Pq#0;2;0;0;0${ESC}\\ok`, 'ok'],
    ['8-bit CSI', `\x9b31mred`, 'red'],
    ['8-bit OSC', `\x9d0;t\x07done`, 'done'],
    ['two-character escapes', `${ESC}c${ESC}7x${ESC}8`, 'x'],
    ['lone ESC at the end', `x${ESC}`, 'x'],
    ['C0 and DEL', `a\x00b\x07c\x08d\x7fe`, 'abcde'],
    ['C1', `a\x85b\x90c`, 'ab'],
    ['carriage returns', 'one\r\ntwo\rthree', 'one\ntwo\nthree'],
  ])('removes %s', (_name, input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });

  it('keeps text, newlines, tabs and any script', () => {
    expect(sanitize('研究\tnotes\nрезюме 📚')).toBe('研究\tnotes\nрезюме 📚');
  });

  it('sanitizeLine folds newlines and tabs into spaces', () => {
    expect(sanitizeLine(`a\nb\tc${ESC}[1m`)).toBe('a b c');
  });

  it('sanitizeDeep cleans every string of a response, keys included, and keeps other values', () => {
    const data = { name: `${ESC}]0;x\x07Evil`, n: 3, ok: true, none: null, list: [`${ESC}[2Jy`, { [`k${ESC}[1m`]: 'v' }] };
    expect(sanitizeDeep(data)).toEqual({ name: 'Evil', n: 3, ok: true, none: null, list: ['y', { k: 'v' }] });
  });
});

describe('keepOnlyStyling (after Markdown rendering)', () => {
  it('keeps colour and hyperlinks, drops every other sequence', () => {
    const rendered = `${ESC}[1mbold${ESC}[22m ${ESC}]8;;https://a.test${ESC}\\a${ESC}]8;;${ESC}\\ ${ESC}[2J${ESC}]0;t\x07${ESC}c`;
    expect(keepOnlyStyling(rendered)).toBe(`${ESC}[1mbold${ESC}[22m ${ESC}]8;;https://a.test${ESC}\\a${ESC}]8;;${ESC}\\ `);
  });
});
