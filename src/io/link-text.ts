// Links shown as text, one way everywhere (rendered Markdown, briefs, chat sources).
// Where the terminal shows OSC 8 hyperlinks the text is the link. Elsewhere the
// reader needs the address: `text (url)`, or the URL alone when the text says
// nothing more than it (the URL itself, or its host). A URL too long for its line
// is shortened in the middle only where it is a link, the whole address kept as
// its target; elsewhere it is whole, to be followed or copied. Service strings are sanitised
// here again: a text or URL carrying escape sequences (an OSC 8 of its own, BEL)
// opens no link and moves nothing.
import { hyperlink, linkableUrl } from './hyperlink.js';
import { sanitizeLine, sanitizeStyled } from './sanitize.js';
import { displayWidth } from './width.js';

// Any OSC 8 sequence: a label wrapped in a link may not hold a link of its own.
const OSC8 = /\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)/g;
const SGR = /\x1b\[[0-9;:]*m/g;

/** The URL as a reader says it: no scheme, no `www.`, no final slash, lower case, decoded. */
function spoken(url: string): string {
  let text = url.trim();
  try {
    text = decodeURI(text);
  } catch {
    // a malformed escape: compare as written
  }
  return text
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/$/, '');
}

/** Whether a link's text says no more than its URL: empty, the URL itself (with or without scheme, `www.`, final slash) or its host. */
export function textIsUrl(text: string, url: string): boolean {
  const said = spoken(text.replace(SGR, '').replace(OSC8, ''));
  if (said === '') return true;
  if (said === spoken(url)) return true;
  try {
    return said === new URL(url.trim()).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return false;
  }
}

/** A label safe to wrap in a link: colour kept, any other escape sequence and any link of its own removed. */
function cleanLabel(text: string): string {
  return sanitizeStyled(text.replace(OSC8, '')).replace(/[\n\t]+/g, ' ');
}

/**
 * A link in running text. With `links` (the terminal shows OSC 8) and a clean
 * http(s) URL: the text linked to the URL (the URL when there is no text).
 * Otherwise `text (url)`, or the URL alone when the text is the URL or its host.
 * `styleUrl` colours the URL where it is shown as text.
 */
export function linkInText(text: string, url: string, links: boolean, styleUrl = (s: string) => s): string {
  const href = sanitizeLine(url);
  const label = cleanLabel(text);
  if (links && linkableUrl(url)) return hyperlink(label.trim() ? label : href, url, true);
  if (textIsUrl(label, href)) return styleUrl(href);
  return `${label} (${styleUrl(href)})`;
}

/** The URL without scheme, `www.` and the slash after a lone host: how a shortened address starts. */
function bare(url: string): string {
  return url
    .replace(/^https?:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/^([^/?#]*)\/$/, '$1');
}

/** `text` cut to `width` columns from its start (`fromEnd`: from its end). */
function cut(text: string, width: number, fromEnd = false): string {
  const chars = Array.from(text);
  if (fromEnd) chars.reverse();
  let out = '';
  let used = 0;
  for (const char of chars) {
    const w = displayWidth(char);
    if (used + w > width) break;
    out = fromEnd ? char + out : out + char;
    used += w;
  }
  return out;
}

/**
 * A URL in at most `width` columns: whole when it fits, else without its scheme
 * and `www.`, and if that is still too long, its middle left out (`host/start…end`):
 * the host and the start of the path, then the end, which names the page.
 */
export function fitUrl(url: string, width: number): string {
  if (displayWidth(url) <= width) return url;
  const short = bare(url);
  if (displayWidth(short) <= width) return short;
  const room = Math.max(1, width - 1);
  const host = short.search(/[/?#]|$/) + 1;
  const head = Math.min(room, Math.max(host, Math.ceil(room / 2)));
  const start = cut(short, head);
  return `${start}…${cut(short.slice(start.length), room - displayWidth(start), true)}`;
}

/**
 * A URL on a line of its own (or after an arrow) in `width` columns: where links
 * work, the address without scheme, shortened to fit and linked to the whole URL;
 * elsewhere the whole URL, even past the edge (the terminal's own wrap keeps it
 * whole to copy; shortened, it would be an address nobody can follow).
 */
export function urlInLine(url: string, width: number, links: boolean): string {
  const href = sanitizeLine(url);
  if (links && linkableUrl(url)) return hyperlink(fitUrl(bare(href), width), url, true);
  return href;
}
