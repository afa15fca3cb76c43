// Any JSON value rendered generically, for the answers (or the parts of them)
// that no view knows: indented `key: value` lines on a terminal, one
// `path<TAB>value` line per leaf when piped.
import type { Formatter } from './format.js';
import { sanitizeLine } from './sanitize.js';

/**
 * Any JSON value as text, for answers no view can render. On a terminal: `key: value`
 * lines, nested objects and lists indented under their key. Piped: one
 * `path<TAB>value` line per leaf (`brief.entries.0.title\tHello`), stable for awk.
 * Every key and string it prints is sanitised (sanitizeLine) here.
 */
export function renderGeneric(value: unknown, f: Pick<Formatter, 'tty' | 'dim'>, maxLines = Infinity): string {
  const lines: string[] = [];
  const full = new Error('enough lines');
  const push = (line: string) => {
    if (lines.length >= maxLines) throw full;
    lines.push(line);
  };
  try {
    walkGeneric(value, f, push);
  } catch (error) {
    if (error !== full) throw error;
    const note = 'more not shown: --json prints the whole answer';
    lines.push(f.tty ? f.dim(`… ${note}`) : `…\t${note}`);
  }
  return lines.join('\n');
}

function walkGeneric(value: unknown, f: Pick<Formatter, 'tty' | 'dim'>, push: (line: string) => void): void {
  if (!f.tty) {
    const leaf = (path: string, v: unknown) => push(`${path || '.'}\t${scalarText(v)}`);
    const walk = (v: unknown, path: string, depth: number): void => {
      if (isComposite(v) && depth < 12) {
        for (const [k, item] of entriesOf(v as object))
          walk(item, path ? `${path}.${sanitizeLine(k)}` : sanitizeLine(k), depth + 1);
      } else leaf(path, v);
    };
    walk(value, '', 0);
    return;
  }
  const walk = (v: unknown, indent: string, depth: number): void => {
    if (Array.isArray(v)) {
      for (const item of v) {
        if (isComposite(item) && depth < 12) {
          push(`${indent}-`);
          walk(item, `${indent}  `, depth + 1);
        } else push(`${indent}- ${scalarText(item)}`);
      }
      return;
    }
    if (isComposite(v) && depth < 12) {
      for (const [k, item] of entriesOf(v as object)) {
        if (isComposite(item) && depth < 11) {
          push(`${indent}${f.dim(`${sanitizeLine(k)}:`)}`);
          walk(item, `${indent}  `, depth + 1);
        } else push(`${indent}${f.dim(`${sanitizeLine(k)}:`)} ${scalarText(item)}`);
      }
      return;
    }
    push(`${indent}${scalarText(v)}`);
  };
  walk(value, '', 0);
}

/** An array or object with something in it (without listing its keys: it may hold millions). */
function isComposite(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.length > 0;
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

/** [key, value] pairs one at a time: Object.entries of a list of millions would make them all first. */
function* entriesOf(value: object): Generator<[string, unknown]> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield [String(i), value[i] as unknown];
    return;
  }
  for (const key in value) if (Object.hasOwn(value, key)) yield [key, (value as Record<string, unknown>)[key]];
}

function scalarText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return sanitizeLine(value);
  if (value !== null && typeof value === 'object') return Array.isArray(value) ? '[]' : '{}';
  return String(value);
}
