// The eight styles the formatter paints with, written as chalk writes them (same
// codes, nesting and line breaks), without loading chalk: chalk's colour detection
// imports node:tty, node:os and node:process when it loads, which every command
// would pay for at start-up (docs/performance.md). Markdown keeps chalk (it loads
// with marked, src/lazy.ts).

type Paint = (text: string) => string;

/** SGR open/close codes (ECMA-48), as ansi-styles has them. */
const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  underline: [4, 24],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;

export type Style = keyof typeof CODES;

/** A painter for one style; the identity when colour is off. */
export function paint(style: Style, on: boolean): Paint {
  if (!on) return (text) => text;
  const [openCode, closeCode] = CODES[style];
  const open = `\u001B[${openCode}m`;
  const close = `\u001B[${closeCode}m`;
  return (text) => {
    if (!text) return text;
    // A style closed inside the text (nested) is opened again after it; each line
    // is closed before its break and opened after it, so a pager or a cut line
    // never bleeds the style.
    const body = text.includes('\u001B') ? text.replaceAll(close, close + open) : text;
    return open + body.replace(/\r?\n/g, (nl) => close + nl + open) + close;
  };
}
