// Links shown as text (src/io/link-text.ts): the text linked where the terminal
// shows hyperlinks, else `text (url)` or the URL alone; URLs shortened to fit;
// escape sequences in service strings never open a link of their own.
import { describe, expect, it } from 'vitest';
import { fitUrl, linkInText, textIsUrl, urlInLine } from '../../src/io/link-text.js';
import { guardOutput } from '../../src/io/sanitize.js';
import { displayWidth } from '../../src/io/width.js';

const url = 'https://www.example.com/2026/11/27/a-rather-long-slug-of-an-article';
const link = (label: string, href: string) => `\x1b]8;;${href}\x1b\\${label}\x1b]8;;\x1b\\`;
const hostile = 'https://a.example/x\x1b]8;;https://evil.example\x07y\x07z';

describe('textIsUrl', () => {
  it('is true for the URL itself, without scheme, www. or final slash, for its host, and for no text', () => {
    for (const text of [
      url,
      'www.example.com/2026/11/27/a-rather-long-slug-of-an-article/',
      'example.com',
      'WWW.Example.com',
      '',
    ])
      expect(textIsUrl(text, url), text).toBe(true);
    expect(textIsUrl('\x1b[34mexample.com\x1b[39m', url)).toBe(true);
  });
  it('is false for other text, another host or part of the path', () => {
    for (const text of ['the article', 'example.org', 'example.com/2026'])
      expect(textIsUrl(text, url), text).toBe(false);
  });
});

describe('linkInText', () => {
  it('without hyperlinks: `text (url)` for other text', () => {
    expect(linkInText('the article', url, false)).toBe(`the article (${url})`);
  });
  it('without hyperlinks: the URL alone when the text is the URL or its host', () => {
    expect(linkInText(url, url, false)).toBe(url);
    expect(linkInText('example.com', url, false)).toBe(url);
    expect(linkInText('', url, false)).toBe(url);
  });
  it('with hyperlinks: the text as the link, the URL only its target', () => {
    expect(linkInText('the article', url, true)).toBe(link('the article', url));
    expect(linkInText('example.com', url, true)).toBe(link('example.com', url));
    expect(linkInText(url, url, true)).toBe(link(url, url));
    expect(linkInText('', url, true)).toBe(link(url, url));
  });
  it('with hyperlinks but a URL that is not http(s): shown as text', () => {
    expect(linkInText('mail me', 'mailto:a@example.com', true)).toBe('mail me (mailto:a@example.com)');
  });
  it('a hostile URL or text opens no link of its own: controls removed, nothing linked to the smuggled target', () => {
    for (const links of [true, false]) {
      for (const out of [
        linkInText('click', hostile, links),
        linkInText(`x\x1b]8;;https://evil.example\x1b\\y`, url, links),
      ]) {
        expect(out).not.toContain('evil.example\x1b');
        expect(out).not.toContain('\x07');
        expect(out).not.toMatch(/\x1b\]8;;https:\/\/evil/);
        expect(guardOutput(out)).toBe(out);
      }
    }
    // the hostile URL is not linked at all (it held controls); its text is shown clean
    expect(linkInText('click', hostile, true)).toBe('click (https://a.example/xyz)');
  });
});

describe('fitUrl and urlInLine', () => {
  it('keeps a URL that fits whole', () => {
    expect(fitUrl(url, 200)).toBe(url);
    expect(urlInLine(url, 200, false)).toBe(url);
  });
  it('drops the scheme and www., then the middle, keeping the host and the end', () => {
    expect(fitUrl(url, 60)).toBe('example.com/2026/11/27/a-rather-long-slug-of-an-article');
    for (const width of [20, 34, 50]) {
      const short = fitUrl(url, width);
      expect(displayWidth(short), short).toBeLessThanOrEqual(width);
      expect(short).toMatch(/^example\.com\/.*….*article$/);
    }
  });
  it('without hyperlinks: the whole URL, to follow or copy; with them: shortened text linked to the whole URL', () => {
    expect(urlInLine(url, 34, false)).toBe(url);
    const linked = urlInLine(url, 34, true);
    expect(linked).toBe(link(fitUrl('example.com/2026/11/27/a-rather-long-slug-of-an-article', 34), url));
    expect(displayWidth(linked)).toBeLessThanOrEqual(34);
  });
  it('with hyperlinks, the root of a site reads as its host', () => {
    expect(urlInLine('https://blog.rust-lang.org/', 40, true)).toBe(
      link('blog.rust-lang.org', 'https://blog.rust-lang.org/'),
    );
  });
  it('a hostile URL: never linked, its controls removed', () => {
    const out = urlInLine(hostile, 100, true);
    expect(out).not.toContain('\x1b');
    expect(out).not.toContain('\x07');
  });
});
