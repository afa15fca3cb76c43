import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/io/markdown.js';
import { createIO } from '../../src/io/terminal.js';

const stream = (tty: boolean) => Object.assign(new PassThrough(), { isTTY: tty, columns: 80 });
const ctx = (tty: boolean, env: NodeJS.ProcessEnv = {}) => ({ io: createIO({ stdin: stream(tty), stdout: stream(tty), stderr: stream(tty) }, env, { color: true, input: true }) });

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
