// `lib sync`'s reading of the space: every file item with what the listing says
// of it (its note, its SHA-256), read field by field, checked to be of the space.
//
// What the listing must say (the contract does not show LibraryItem's fields):
//   note      which items came from DIR. Without it (or when an upload's answer
//             gives the item another note than was sent) nothing is deleted —
//             no replaced version, no removed file — and the run says so;
//             uploads still go.
//   sha256    which files are unchanged, without a request. Without it every
//             file is sent (the service recognises the bytes: nothing is added
//             twice) and the answer's item id tells unchanged from replaced.
import type { ApiClient } from '../api/client.js';
import { CliError } from '../errors.js';
import { paginate } from '../http/paginate.js';

export interface Mapping {
  names: boolean;
  hashes: boolean;
}

/** An item of the space as listed: only what sync reads. */
export interface Listed {
  id: string;
  fileName?: string;
  note?: string | null;
  /** Mapped by the earlier scheme's file name (`<prefix>:a:b.md`), not by its note. */
  legacy?: boolean;
  sha256?: string;
  size?: number;
}

const PAGE = 200;

/** Every file item of the space, with what the listing says of names and SHA-256. */
export async function listSpace(
  api: ApiClient,
  space: string,
  signal: AbortSignal | undefined,
): Promise<{ items: Listed[]; mapping: Mapping; requests: number }> {
  const items: Listed[] = [];
  let names = true;
  let hashes = true;
  let requests = 0;
  // paginate follows every cursor, and stops with an error on one that loops or is not text:
  // a listing cut short would make files the space holds look missing.
  const listing = paginate<unknown>(
    async (cursor) => {
      // Read field by field below (what is not read is not needed): the pages are not compared with their shape.
      const page = await api.call('listLibrary', {
        query: { space, kind: 'file', limit: PAGE, ...(cursor ? { cursor } : {}) },
        signal,
        unchecked: true,
      });
      requests++;
      const listed: unknown = (page as { items?: unknown }).items;
      // Read as a map, a listing that is not a list would look like an empty space: stop instead.
      if (!Array.isArray(listed))
        throw new CliError(
          'the library listing did not come as {items: [...]}: kagent cannot tell what the space holds, and sent nothing',
          { code: 'UNEXPECTED_ANSWER' },
        );
      return { items: listed as unknown[], nextCursor: (page as { nextCursor?: unknown }).nextCursor as string | null };
    },
    { all: true },
  );
  const seen = new Set<string>();
  for await (const raw of listing) {
    const item = listedItem(raw, space, seen);
    if (!item) continue;
    if (item.note === undefined) names = false;
    if (item.sha256 === undefined) hashes = false;
    items.push(item);
  }
  return { items, mapping: { names, hashes }, requests };
}

/** A file item of the space, as sync reads it; undefined for anything else, or an item listed already (in `seen`). */
function listedItem(raw: unknown, space: string, seen: Set<string>): Listed | undefined {
  const item = (raw ?? {}) as Record<string, unknown>;
  if (typeof item.id !== 'string') return undefined;
  // The same item on two pages (the listing moved under the cursor) is one item: one line, one count.
  if (seen.has(item.id)) return undefined;
  seen.add(item.id);
  // An item of another space: the service did not filter as asked. Deleting by such a listing
  // could reach items of other spaces, so nothing is done (the docs promise they are never touched).
  if (typeof item.spaceId === 'string' && item.spaceId !== space)
    throw new CliError(
      `the library listing of space ${space} holds item ${item.id} of space ${item.spaceId}: the service did not list what was asked, and kagent sent nothing`,
      { code: 'UNEXPECTED_ANSWER' },
    );
  if (item.kind !== undefined && item.kind !== 'file') return undefined;
  const fileName = typeof item.fileName === 'string' ? item.fileName : undefined;
  const note = typeof item.note === 'string' || item.note === null ? item.note : undefined;
  const sha256 =
    typeof item.sha256 === 'string' && /^[0-9a-f]{64}$/i.test(item.sha256) ? item.sha256.toLowerCase() : undefined;
  return {
    id: item.id,
    ...(fileName !== undefined ? { fileName } : {}),
    ...(note !== undefined ? { note } : {}),
    ...(sha256 !== undefined ? { sha256 } : {}),
    ...(typeof item.size === 'number' ? { size: item.size } : {}),
  };
}

/** The ids among `ids` that the space's listing does not show: one more listing (pages of 200). */
export async function notListed(
  api: ApiClient,
  space: string,
  ids: Iterable<string>,
  signal: AbortSignal | undefined,
): Promise<Set<string>> {
  const there = new Set((await listSpace(api, space, signal)).items.map((item) => item.id));
  return new Set([...ids].filter((id) => !there.has(id)));
}
