// The Idempotency-Key of an upload, derived from what is sent: the content,
// plus the file name and the target options (space, note, language). The same
// job run again sends the same keys, so the service answers each file from its
// idempotency cache (`idempotent-replayed: true`) and nothing is added twice; a
// retry after a dropped connection is the same request again.
//
// The content part is the SHA-256 of the bytes (`kagent-upload-v1`), or for a
// large file that is not text, the digest of samples of its bytes
// (`kagent-sampled-v1`, see prepare.ts): such a file is sent without first
// being read whole. Two versions of a file can share a sampled key, so the
// uploader trusts a replayed answer to it only when the service's SHA-256 of
// what it stored is the file's, and otherwise sends the file again under the
// key of its SHA-256.
//
// A key names a request, not a state of the library: within the service's
// 24 hours it replays its first answer even when the item it names has been
// deleted or moved since. So an answer that comes from the cache, or that
// names an item kagent did not just create, is checked (uploader.ts): when its
// item is gone, the file goes again under a fresh key (`after`, random): a new
// request that cannot replay. A deterministic one would name the gone item and
// chain — after n deletions, n replays to walk through; the service's one item
// per content still keeps a fresh key from adding the file twice.
//
// The name is part of the key because the service treats the name as part of
// the request: the same key with another X-File-Name would be a different body
// (422). Two copies of one file under different names get different keys, and
// the service answers the second with `duplicate: true`.
import { createHash } from 'node:crypto';

export interface KeyParts {
  /** Hex SHA-256 of the file's bytes, or when `sampled`, the digest of samples of them. */
  digest: string;
  sampled: boolean;
  name: string;
  /** The space id sent (undefined: the agent picks). */
  space?: string;
  note?: string;
  lang?: string;
  /** A fresh value, for a file whose replayed answer named an item now gone. */
  after?: string;
}

/** `<prefix>:<digest>:<32 hex of the name and options>`: at most 115 characters, within the contract's 200. */
export function uploadKey(parts: KeyParts): string {
  const options = createHash('sha256')
    .update(
      JSON.stringify([
        parts.name,
        parts.space ?? null,
        parts.note ?? null,
        parts.lang ?? null,
        ...(parts.after !== undefined ? [parts.after] : []),
      ]),
    )
    .digest('hex')
    .slice(0, 32);
  return `${parts.sampled ? 'kagent-sampled-v1' : 'kagent-upload-v1'}:${parts.digest}:${options}`;
}
