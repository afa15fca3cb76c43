// Markdown from the service (documents, memory, transcripts): rendered with
// marked + marked-terminal on a colour terminal, printed as sanitised source
// otherwise (piped, or colour turned off). Both libraries load only here.
import type { Context } from '../context.js';
import { sanitize } from './sanitize.js';
import { colorLevel } from './terminal.js';

export async function renderMarkdown(ctx: Pick<Context, 'io'>, markdown: string): Promise<string> {
  const source = sanitize(markdown);
  if (!ctx.io.stdoutIsTTY || !ctx.io.color) return ensureNewline(source);
  const [{ Marked }, { markedTerminal }, { Chalk }] = await Promise.all([import('marked'), import('marked-terminal'), import('chalk')]);
  const chalk = new Chalk({ level: colorLevel(ctx.io.env) });
  const marked = new Marked(
    markedTerminal({
      width: Math.min(ctx.io.columns, 100),
      reflowText: true,
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
    renderer: {
      text(token) {
        return typeof token === 'object' && 'tokens' in token && Array.isArray(token.tokens) ? this.parser.parseInline(token.tokens) : false;
      },
    },
  });
  const rendered = await marked.parse(source);
  return ensureNewline(keepOnlyStyling(rendered).replace(/\n{3,}/g, '\n\n').trimEnd());
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
