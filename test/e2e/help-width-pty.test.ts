// Help wraps at the terminal's width at word boundaries, for every command
// through the one help configuration (src/cli/commander.ts): at 40, 80 and 200
// columns in a real pseudo-terminal, no line is wider than the terminal and no
// word is cut in two (the text, whitespace collapsed, reads as written);
// examples stay whole, as commands to copy.
import { describe, expect, it, beforeAll } from 'vitest';
import { displayWidth } from '../../src/io/width.js';
import { ensureBuilt, plain, runInPty } from '../helpers/binary.js';

beforeAll(() => ensureBuilt());

const env = { HOME: '/nonexistent', KAGENT_CONFIG_DIR: '/nonexistent/kagent' };

describe.each([40, 80, 200])('help at %i columns', (cols) => {
  it.each([
    [
      ['space', '--help'],
      ['Delete a space; what it holds moves to your default space', 'show help for this command'],
    ],
    [['lib', 'upload', '--help'], ['Upload files: PDF, Word (.docx), Markdown, plain text and images']],
    [['watch', 'create', '--help'], ['show help for this command']],
  ])('kagent %s', async (args, phrases) => {
    const run = await runInPty(args, { env, cols });
    expect(run.code).toBe(0);
    const text = plain(run.output);
    // Examples are commands to copy: whole, like URLs (they may run past the edge).
    for (const line of text.split('\n'))
      if (!line.startsWith('  $ ')) expect(displayWidth(line), line).toBeLessThanOrEqual(cols);
    const flat = text.replace(/\s+/g, ' ');
    for (const phrase of phrases) expect(flat).toContain(phrase);
  });
});
