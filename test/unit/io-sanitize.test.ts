import { describe, expect, it } from 'vitest';
import { keepOnlyStyling } from '../../src/io/markdown.js';
import { redactUrlCredentials } from '../../src/http/url.js';
import {
  escapeJsonControls,
  guardOutput,
  sanitize,
  sanitizeDeep,
  sanitizeLine,
  sanitizeStyled,
} from '../../src/io/sanitize.js';

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

  it('U+2028 and U+2029 are line breaks (readers split lines on them): one line folds them too', () => {
    expect(sanitize('a\u2028b\u2029c')).toBe('a\nb\nc');
    expect(sanitizeLine('sp_1\u2028sp_2')).toBe('sp_1 sp_2');
    expect(guardOutput('row\u2028forged row\n')).toBe('row\nforged row\n');
  });

  it('sanitizeDeep cleans every string of a response, keys included, and keeps other values', () => {
    const data = {
      name: `${ESC}]0;x\x07Evil`,
      n: 3,
      ok: true,
      none: null,
      list: [`${ESC}[2Jy`, { [`k${ESC}[1m`]: 'v' }],
    };
    expect(sanitizeDeep(data)).toEqual({ name: 'Evil', n: 3, ok: true, none: null, list: ['y', { k: 'v' }] });
  });
});

describe('keepOnlyStyling (after Markdown rendering)', () => {
  it('keeps colour and hyperlinks, drops every other sequence', () => {
    const rendered = `${ESC}[1mbold${ESC}[22m ${ESC}]8;;https://a.test${ESC}\\a${ESC}]8;;${ESC}\\ ${ESC}[2J${ESC}]0;t\x07${ESC}c`;
    expect(keepOnlyStyling(rendered)).toBe(
      `${ESC}[1mbold${ESC}[22m ${ESC}]8;;https://a.test${ESC}\\a${ESC}]8;;${ESC}\\ `,
    );
  });
});

describe('bidi and invisible format controls', () => {
  const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  it('are shown as <U+XXXX> markers by sanitize and sanitizeLine, not dropped', () => {
    const text = 'invoice\u202Efdp.exe \u2066a\u2069 \u200Fb \u061Cc \uFEFFd \u200Be';
    expect(sanitize(text)).toBe('invoice<U+202E>fdp.exe <U+2066>a<U+2069> <U+200F>b <U+061C>c <U+FEFF>d <U+200B>e');
    expect(sanitizeLine(`x\u202D\ny`)).toBe('x<U+202D> y');
    expect(BIDI.test(sanitize(text))).toBe(false);
  });

  it('keeps joiners that scripts and emoji need', () => {
    expect(sanitize('👩\u200D💻 می\u200Cخواهم')).toBe('👩\u200D💻 می\u200Cخواهم');
  });
});

describe('sanitizeStyled (server text inside our own styling)', () => {
  it('keeps our colour and hyperlinks, removes other sequences, shows bidi controls', () => {
    const ours = `${ESC}[1mName${ESC}[22m ${ESC}]8;;https://a.test/x${ESC}\\link${ESC}]8;;${ESC}\\`;
    const hostile = `Ops${ESC}]52;c;ZXZpbA==\x07${ESC}[2J${ESC}]0;pwned\x07\u202E`;
    expect(sanitizeStyled(`${ours} ${hostile}`)).toBe(`${ours} Ops<U+202E>`);
  });

  it('does not keep a cursor move or a carriage return', () => {
    expect(sanitizeStyled(`a\r${ESC}[2Kb${ESC}[3Ac${ESC}[J`)).toBe('a\nbc');
  });
});

describe('guardOutput (every write to stdout/stderr)', () => {
  it('lets our progress-line moves and styling through and nothing else', () => {
    const progress = `${ESC}[2A\r${ESC}[2K${ESC}[36m██${ESC}[39m 50%\n${ESC}[J\r${ESC}[2K`;
    expect(guardOutput(progress)).toBe(progress);
    expect(guardOutput(`${progress}${ESC}]52;c;eA==\x07${ESC}[2J${ESC}P1$r${ESC}\\\x9b2J\u2067x`)).toBe(
      `${progress}<U+2067>x`,
    );
  });

  it('returns clean text unchanged', () => {
    const text = 'id\tname\n研究 📚\n';
    expect(guardOutput(text)).toBe(text);
  });
});

describe('escapeJsonControls', () => {
  it('escapes DEL, C1 and bidi controls as \\u escapes: the same JSON value, nothing a terminal acts on', () => {
    const value = { name: 'a\x7fb\x9bc\u202Ed\u2066e' };
    const json = escapeJsonControls(JSON.stringify(value));
    expect(json).toBe('{"name":"a\\u007fb\\u009bc\\u202ed\\u2066e"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('redactUrlCredentials', () => {
  it('hides the user and password of every URL in a text and leaves the rest', () => {
    expect(
      redactUrlCredentials('GET https://alice:s3cret@api.example.com/api/v1/me 200; see http://tok@h:8080/x'),
    ).toBe('GET https://***@api.example.com/api/v1/me 200; see http://***@h:8080/x');
    expect(redactUrlCredentials('mail me at a@b.test, https://example.com/a@b')).toBe(
      'mail me at a@b.test, https://example.com/a@b',
    );
  });
});
