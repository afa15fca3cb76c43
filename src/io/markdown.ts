// Markdown from the service (documents, memory, transcripts): rendered with
// marked + marked-terminal on a colour terminal, printed as sanitised source
// otherwise (piped, or colour turned off). Both libraries load on first use (src/lazy.ts).
// Wrapping is ours (src/io/width.ts), not marked-terminal's: its reflow measures
// CJK as one column and leaves list items alone, so lines overflowed or broke
// mid-word. Soft line breaks are joined, then every rendered line is wrapped to
// the width at word boundaries (between any two CJK characters), continuation
// lines indented under their list marker or quote; URLs are never split.
// Code blocks are printed without syntax highlighting: marked-terminal's
// highlighter (cli-highlight, all of highlight.js) is left out of the bundle
// (scripts/build.mjs), which took ~135 ms off the first rendered Markdown; the
// emoji shortcode table (`:rocket:` → 🚀) loads only when the text has one.
// Links: the text linked where the terminal shows hyperlinks, else `text (url)`,
// or the URL alone when the text is the URL or its host (src/io/link-text.ts).
import type { Context } from '../context.js';
import { supportsHyperlinks } from './hyperlink.js';
import { linkInText } from './link-text.js';
import { sanitize } from './sanitize.js';
import { colorLevel } from './terminal.js';
import { wrapText } from './width.js';
import { Chalk } from 'chalk';
import { loadEmojiCodes } from './emoji-codes.js';
import { loadMarked } from '../lazy.js';

/** Rendered Markdown is at most this wide, however wide the terminal: long lines are hard to read. */
export const MARKDOWN_MAX_WIDTH = 100;

/** `width`: the columns the text may take (less than the terminal's when the caller indents it). */
export async function renderMarkdown(
  ctx: Pick<Context, 'io'>,
  markdown: string,
  options: { width?: number } = {},
): Promise<string> {
  const source = sanitize(markdown);
  if (!ctx.io.stdoutIsTTY || !ctx.io.color) return ensureNewline(source);
  const [{ Marked }, { markedTerminal }] = await loadMarked();
  await loadEmojiCodes(source);
  const chalk = new Chalk({ level: colorLevel(ctx.io.env) });
  const links = supportsHyperlinks(ctx.io);
  const width = Math.max(20, Math.min(options.width ?? ctx.io.columns, ctx.io.columns, MARKDOWN_MAX_WIDTH));
  const marked = new Marked(
    markedTerminal({
      width,
      reflowText: false,
      tab: 2,
      code: chalk.yellow,
      codespan: chalk.yellow,
      blockquote: chalk.gray.italic,
      html: chalk.gray,
      heading: chalk.green.bold,
      firstHeading: chalk.magenta.bold,
      strong: chalk.bold,
      em: chalk.italic,
      del: chalk.dim.strikethrough,
      link: chalk.blue,
      href: chalk.blue.underline,
    }) as any,
  );
  // marked-terminal prints a block-level text token (the body of a tight list
  // item) as raw source, so "- **bold** item" kept its asterisks: render its
  // inline tokens instead, as marked's own renderer does.
  marked.use({
    // A soft line break in a paragraph or list item is a space: the text is wrapped below.
    walkTokens(token) {
      if (token.type === 'text' && !('tokens' in token && Array.isArray(token.tokens) && token.tokens.length > 0))
        token.text = token.text.replace(/ *\n(?!\n) */g, ' ');
    },
    renderer: {
      text(token) {
        return typeof token === 'object' && 'tokens' in token && Array.isArray(token.tokens)
          ? this.parser.parseInline(token.tokens)
          : false;
      },
      // Plain code in the code colour, indented: no highlighter is loaded.
      code(token) {
        const lines = token.text.replace(/\n+$/, '').split('\n');
        return `${lines.map((line) => `  ${chalk.yellow(line)}`).join('\n')}\n\n`;
      },
      hr() {
        return `${chalk.dim('─'.repeat(width))}\n\n`;
      },
      // One link mechanism (src/io/link-text.ts), not marked-terminal's: its own
      // hyperlink detection and BEL-ended links, and `host (url)` for a link
      // whose text is its host or the URL itself.
      link(token) {
        return chalk.blue(linkInText(this.parser.parseInline(token.tokens), token.href, links, chalk.blue.underline));
      },
    },
  });
  const rendered = await marked.parse(source);
  return ensureNewline(
    wrapText(
      keepOnlyStyling(rendered)
        .replace(/\n{3,}/g, '\n\n')
        .trimEnd(),
      width,
    ),
  );
}

/**
 * Belt and braces after rendering: the only escape sequences allowed through
 * are colour/style (SGR, `ESC [ ... m`) and hyperlinks (OSC 8), which the
 * renderer itself produced from already-sanitised text.
 */
export function keepOnlyStyling(text: string): string {
  return text
    .replace(/\x1b\](?!8;)[^\x07\x1b]*(?:\x07|\x1b\\)?/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*([@-~])/g, (sequence: string, final: string) => (final === 'm' ? sequence : ''))
    .replace(/\x1b(?![[\]\\])[ -/]*[0-~]?/g, '');
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
