// Secrets never reach stdout or stderr: the one redaction, at the output
// boundary. Every write to the run's two streams (through emit(), a direct
// write, a spinner, a prompt, the pager, the error report) passes through the
// stream's own write(), which guardStream() (streams.ts) wraps once here: the
// user and password of any URL (`https://user:password@host`) become `***@`,
// and the secret values this run knows (the API key, a base URL's or proxy's
// password) become masked. A command cannot forget: it never sees the raw write.
// `kagent auth token` is the one command that prints the key: it says so
// (`revealsKey`), and the key alone is then not registered.
import type { Writable } from 'node:stream';

// `scheme://userinfo@`: userinfo as RFC 3986 allows it (no quote, space, angle
// bracket or backslash), so that compact JSON (`"http://h","e":"a@b"`) or a
// sentence is never taken for one.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\`[\]{}|^]+@/gi;
/** Shorter values are not replaced wherever they occur (a 4-letter password would blank common words); in a URL they are. */
const MIN_SECRET_LENGTH = 6;

/** `***` for a secret, or the key's masked form (`kak_…abcd`) when given. */
export interface Secret {
  value: string;
  shown: string;
}

/** Every URL's user and password replaced by `***`, and every known secret value by its mask. */
export function redactText(text: string, secrets: readonly Secret[] = []): string {
  let out = text.includes('://') && text.includes('@') ? text.replace(URL_USERINFO, '$1***@') : text;
  for (const { value, shown } of secrets) if (out.includes(value)) out = out.split(value).join(shown);
  return out;
}

/** The password in a URL (as written and decoded), worth replacing wherever it appears. */
export function urlSecrets(url: string | undefined): Secret[] {
  if (!url) return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const values = new Set<string>();
  for (const part of [parsed.password, parsed.username && parsed.password === '' ? parsed.username : '']) {
    if (!part) continue;
    values.add(part);
    try {
      values.add(decodeURIComponent(part));
    } catch {
      // Not percent-encoded text: the raw form is enough.
    }
  }
  return [...values].filter((v) => v.length >= MIN_SECRET_LENGTH).map((value) => ({ value, shown: '***' }));
}

/** The API key, shown masked (`kak_…abcd`, as maskKey makes it). */
export function keySecret(key: string | undefined, mask: (key: string) => string): Secret[] {
  return key && key.length >= MIN_SECRET_LENGTH ? [{ value: key, shown: mask(key) }] : [];
}

interface Redaction {
  secrets: Secret[];
}

const redactions = new WeakMap<Writable, Redaction>();

/** Wraps the stream's write() once: from now on, nothing written to it carries a secret. Streams given `like` share its secrets. */
export function redactStream(stream: Writable, like?: Writable): void {
  if (redactions.has(stream)) return;
  const redaction: Redaction = (like && redactions.get(like)) || { secrets: [] };
  redactions.set(stream, redaction);
  const write = stream.write;
  stream.write = function redactedWrite(this: Writable, chunk: unknown, ...rest: unknown[]) {
    return (write as (...args: unknown[]) => boolean).call(this, redactChunk(chunk, redaction.secrets), ...rest);
  } as Writable['write'];
}

/** Adds secret values to what the streams' writes replace (streams not yet wrapped are wrapped). */
export function addSecrets(streams: readonly Writable[], secrets: readonly Secret[]): void {
  for (const stream of streams) {
    redactStream(stream);
    const redaction = redactions.get(stream) as Redaction;
    for (const secret of secrets)
      if (!redaction.secrets.some((s) => s.value === secret.value)) redaction.secrets.push(secret);
    // Longest first: a secret that contains another is replaced whole.
    redaction.secrets.sort((a, b) => b.value.length - a.value.length);
  }
}

function redactChunk(chunk: unknown, secrets: readonly Secret[]): unknown {
  if (typeof chunk === 'string') return redactText(chunk, secrets);
  if (chunk instanceof Uint8Array) {
    // Bytes (the pager's, a raw body): looked at as latin1, one character per byte, so that bytes
    // which are not text come back unchanged; only a match is replaced.
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!bytes.includes('://') && !secrets.some((s) => bytes.includes(s.value))) return chunk;
    const latin = secrets.map((s) => ({
      value: Buffer.from(s.value).toString('latin1'),
      shown: Buffer.from(s.shown).toString('latin1'),
    }));
    const text = bytes.toString('latin1');
    const redacted = redactText(text, latin);
    return redacted === text ? chunk : Buffer.from(redacted, 'latin1');
  }
  return chunk;
}
