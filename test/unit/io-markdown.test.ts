import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/io/markdown.js';
import { guardOutput } from '../../src/io/sanitize.js';
import { createIO } from '../../src/io/terminal.js';

const stream = (tty: boolean) => Object.assign(new PassThrough(), { isTTY: tty, columns: 80 });
const ctx = (tty: boolean, env: NodeJS.ProcessEnv = {}) => ({
  io: createIO({ stdin: stream(tty), stdout: stream(tty), stderr: stream(tty) }, env, { color: true, input: true }),
});

const source = '# Weekly notes\n\nSome **bold** text\x1b]0;owned\x07 and `code`.\x1b[2J\n\n- one\n- two\n';

describe('Markdown', () => {
  it('is rendered with colour on a colour terminal, server escapes removed', async () => {
    const out = await renderMarkdown(ctx(true), source);
    expect(out).toContain('\x1b[');
    expect(out.replace(/\x1b\[[0-9;]*m/g, '')).toContain('Weekly notes');
    expect(out).not.toContain('**bold**');
    expect(out).not.toContain('owned');
    expect(out).not.toContain('\x1b[2J');
  });

  it('is printed as sanitised source when piped or without colour', async () => {
    const expected = '# Weekly notes\n\nSome **bold** text and `code`.\n\n- one\n- two\n';
    expect(await renderMarkdown(ctx(false), source)).toBe(expected);
    expect(await renderMarkdown(ctx(true, { NO_COLOR: '1' }), source)).toBe(expected);
  });
});

describe('Markdown wrapped to the terminal', () => {
  const at = (columns: number) => {
    const out = Object.assign(new PassThrough(), { isTTY: true, columns });
    return {
      io: createIO({ stdin: stream(true), stdout: out, stderr: stream(true) }, {}, { color: true, input: true }),
    };
  };
  const bare = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\x1b\]8;[^\x07]*\x07/g, '');
  const words = 'the quick brown fox jumps over the lazy dog and keeps on running through the forest';
  const doc = [
    `A paragraph written over\nseveral short source lines: ${words}.`,
    '',
    `- ${words}`,
    `  1. nested ${words}`,
    '',
    `> ${words}`,
    '',
    '中文段落：这是一个很长的中文段落，用来测试换行是否正确处理宽字符，不会超出终端宽度。',
    '',
    'Read https://example.com/a/rather/long/path/to/a/page today.',
    '',
    '```ts\nconst x: number = 1; // a code block\n```',
  ].join('\n');

  for (const columns of [40, 60, 80, 120]) {
    it(`no line wider than ${columns} columns (at most 100), words whole`, async () => {
      const out = bare(await renderMarkdown(at(columns), doc));
      const limit = Math.min(columns, 100);
      const { displayWidth } = await import('../../src/io/width.js');
      for (const line of out.split('\n'))
        if (!line.includes('https://')) expect(displayWidth(line), line).toBeLessThanOrEqual(limit);
      const known = new Set(doc.match(/[A-Za-z]+/g));
      for (const word of out.match(/[A-Za-z]+/g) ?? []) expect(known, word).toContain(word);
      expect(out).toContain('https://example.com/a/rather/long/path/to/a/page');
    });
  }

  it('joins soft line breaks, indents list continuations under the text, keeps code plain', async () => {
    const out = await renderMarkdown(at(40), doc);
    const lines = bare(out).split('\n');
    // "over several" were on two source lines: now one paragraph, wrapped by width.
    expect(bare(out)).toMatch(/written over several/);
    const item = lines.findIndex((line) => /^\s+\* the quick/.test(line));
    expect(lines[item + 1]).toMatch(/^ {4}\S/);
    const nested = lines.findIndex((line) => /^\s+1\. nested/.test(line));
    const indent = (lines[nested] ?? '').indexOf('nested');
    expect((lines[nested + 1] ?? '').search(/\S/)).toBe(indent);
    // The code block: one colour (yellow), no highlighter's palette.
    const code = out.split('\n').find((line) => line.includes('const x'));
    expect(code).toBe('  \x1b[33mconst x: number = 1; // a code block\x1b[39m');
  });

  it('breaks Chinese text between characters to fill each line', async () => {
    const out = bare(
      await renderMarkdown(
        at(40),
        '中文段落：这是一个很长的中文段落，用来测试换行是否正确处理宽字符，不会超出终端宽度。',
      ),
    );
    const lines = out.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    const { displayWidth } = await import('../../src/io/width.js');
    for (const line of lines.slice(0, -1)) expect(displayWidth(line)).toBeGreaterThanOrEqual(39);
  });
});

describe('Markdown links', () => {
  const at = (env: NodeJS.ProcessEnv) => ({
    io: createIO(
      {
        stdin: stream(true),
        stdout: Object.assign(new PassThrough(), { isTTY: true, columns: 200 }),
        stderr: stream(true),
      },
      env,
      { color: true, input: true },
    ),
  });
  const url = 'https://signal.example.org/2026/a-slug';
  const source = [
    `Host: ([signal.example.org](${url})).`,
    `Same: [${url}](${url}).`,
    `Bare: ${url} and <${url}/x>.`,
    `Text: [the report](${url}).`,
  ].join('\n\n');
  const sgr = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
  const link = (label: string, href: string) => `\x1b]8;;${href}\x1b\\${label}\x1b]8;;\x1b\\`;

  it('without hyperlinks: `text (url)` once, the URL alone when the text is the URL or its host', async () => {
    const out = sgr(await renderMarkdown(at({ FORCE_HYPERLINK: '0' }), source));
    expect(out).toContain(`Host: (${url}).`);
    expect(out).toContain(`Same: ${url}.`);
    expect(out).toContain(`Bare: ${url} and ${url}/x.`);
    expect(out).toContain(`Text: the report (${url}).`);
    expect(out).not.toContain('\x1b]8;');
    expect(out).not.toContain('signal.example.org (');
  });

  it('with hyperlinks: the text is the link (ST-ended, as the output gate allows), the URL not repeated', async () => {
    const out = sgr(await renderMarkdown(at({ FORCE_HYPERLINK: '1' }), source));
    expect(out).toContain(`Host: (${link('signal.example.org', url)}).`);
    expect(out).toContain(`Same: ${link(url, url)}.`);
    expect(out).toContain(`Text: ${link('the report', url)}.`);
    expect(out).toContain(`Bare: ${link(url, url)} and ${link(`${url}/x`, `${url}/x`)}.`);
    expect(guardOutput(out)).toBe(out);
  });

  it('a hostile link target or text opens no hyperlink of its own', async () => {
    const hostile = `[x\x1b]8;;https://evil.example\x07y](https://a.example/p\x1b]8;;https://evil.example\x1b\\q) and [z](https://a.example/\x07r)`;
    for (const env of [{ FORCE_HYPERLINK: '1' }, { FORCE_HYPERLINK: '0' }]) {
      const out = await renderMarkdown(at(env), hostile);
      expect(out).not.toContain('evil.example');
      expect(out).not.toContain('\x07');
      expect(guardOutput(out)).toBe(out);
    }
  });
});
