// The Idempotency-Key of an upload, derived from what is sent: the SHA-256 of
// the bytes, plus the file name and the target options (space, note, language).
// The same job run again sends the same keys, so the service answers each file
// from its idempotency cache (`idempotent-replayed: true`) and nothing is added
// twice; a retry after a dropped connection is the same request again.
//
// The name is part of the key because the service treats the name as part of
// the request: the same key with another X-File-Name would be a different body
// (422). Two copies of one file under different names get different keys, and
// the service answers the second with `duplicate: true`.
import { createHash } from 'node:crypto';

export interface KeyParts {
  /** Hex SHA-256 of the file's bytes (for files of 64 MiB and more, the tree digest of tree-hash.ts). */
  sha256: string;
  name: string;
  /** The space id sent (undefined: the agent picks). */
  space?: string;
  note?: string;
  lang?: string;
}

const PREFIX = 'kagent-upload-v1';

/** `kagent-upload-v1:<sha256 of the bytes>:<32 hex of the name and options>`: 115 characters, within the contract's 200. */
export function uploadKey(parts: KeyParts): string {
  const options = createHash('sha256')
    .update(JSON.stringify([parts.name, parts.space ?? null, parts.note ?? null, parts.lang ?? null]))
    .digest('hex')
    .slice(0, 32);
  return `${PREFIX}:${parts.sha256}:${options}`;
}
