// What marked-terminal gets in place of node-emoji in the bundle (scripts/build.mjs):
// it turns `:rocket:` into 🚀 with node-emoji's get(), and node-emoji brings the
// whole emojilib table (~100 ms to load). The table is loaded only for Markdown
// that has a `:code:` in it (src/io/markdown.ts calls loadEmojiCodes first).
import { loadEmoji } from '../lazy.js';

type NodeEmoji = typeof import('node-emoji');

let table: NodeEmoji | undefined;

/** Loads the shortcode table when `markdown` may use it. */
export async function loadEmojiCodes(markdown: string): Promise<void> {
  if (table || !/:[A-Za-z0-9_+-]+:/.test(markdown)) return;
  table = await loadEmoji();
}

/** node-emoji's get(): the emoji for `:code:`, or undefined (always, until loaded). */
export function get(code: string): string | undefined {
  return table?.get(code);
}
