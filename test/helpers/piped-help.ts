// What a command's help says it prints piped (the "Piped, …" sentence that its
// field table writes, src/io/declared.ts), read back so a test can hold it
// against what the command printed.

/** The keys (or a row's or a list's columns) that the help's "Piped, …" sentence names, in order, without what each says in brackets. */
export function pipedKeysOf(description: string | undefined): string[] {
  const named = /Piped, (?:one `key<TAB>value` line per field|one tab-separated row|each row is): (.*?)\.(?:\s|$)/.exec(
    description ?? '',
  )?.[1];
  if (named === undefined) throw new Error(`no "Piped, …" sentence in: ${description}`);
  return named.split(', ').map((word) => word.replace(/ \(.*\)$/, ''));
}
