// The names `lib sync` gives: each file goes up under its own name, with a
// note that records its path under the folder (syncNote), read back from the
// listing (pathOfNote). The earlier scheme's names (`<prefix>:a:b.md`, with
// %-escaped parts) are still read (pathOfName), so that its items migrate.

const encodePart = (part: string) =>
  /[%:\\/]/.test(part)
    ? part.replace(/%/g, '%25').replace(/:/g, '%3A').replace(/\\/g, '%5C').replace(/\//g, '%2F')
    : part;

function decodePart(part: string): string | undefined {
  if (/%(?!25|3A|5C|2F)/i.test(part)) return undefined;
  const chars: Record<string, string> = { '25': '%', '3A': ':', '5C': '\\', '2F': '/' };
  return part.replace(/%(25|3A|5C|2F)/gi, (_, hex: string) => chars[hex.toUpperCase()] as string);
}

/** The X-File-Name of the file at `rel`: its own name, what a person recognises. */
export function syncFileName(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

/** The note that says which file of the folder synced as `prefix` an item holds. */
export function syncNote(prefix: string, rel: string): string {
  return `kagent lib sync ${JSON.stringify(prefix)} ${JSON.stringify(rel)}`;
}

/** The path under DIR an item's note stands for; undefined when it is not a note sync wrote for `prefix`. */
export function pathOfNote(prefix: string, note: string): string | undefined {
  // Exactly syncNote(prefix, rel) for some rel: the prefix's part as written, then rel as JSON writes it.
  const head = `kagent lib sync ${JSON.stringify(prefix)} `;
  if (!note.startsWith(head)) return undefined;
  const quoted = note.slice(head.length);
  let rel: unknown;
  try {
    rel = JSON.parse(quoted);
  } catch {
    return undefined;
  }
  if (typeof rel !== 'string' || JSON.stringify(rel) !== quoted) return undefined;
  return rel.split('/').some((part) => part === '' || part === '.' || part === '..') ? undefined : rel;
}

/** The earlier scheme's X-File-Name of the file at `rel` (folders separated by /) under the folder synced as `prefix`. */
export function syncName(prefix: string, rel: string): string {
  return `${encodePart(prefix)}:${rel.split('/').map(encodePart).join(':')}`;
}

/** The path under DIR that an earlier-scheme file name stands for; undefined when the name is not one sync gave for `prefix`. */
export function pathOfName(prefix: string, fileName: string): string | undefined {
  const head = `${encodePart(prefix)}:`;
  if (!fileName.startsWith(head)) return undefined;
  const parts = fileName.slice(head.length).split(':').map(decodePart);
  if (parts.some((part) => part === undefined || part === '' || part === '.' || part === '..' || part.includes('/')))
    return undefined;
  const rel = parts.join('/');
  // Only the one way sync writes a path (%3a is not %3A): one name per file.
  return syncName(prefix, rel) === fileName ? rel : undefined;
}

/** Problems with a --prefix value, or undefined. */
export function prefixProblem(prefix: string): string | undefined {
  if (prefix.trim() === '') return 'is empty';
  if (prefix !== prefix.trim()) return 'starts or ends with a space';
  if (/[\x00-\x1f\x7f]/.test(prefix)) return 'contains a control character';
  if (prefix.length > 100) return 'is over 100 characters';
  return undefined;
}
