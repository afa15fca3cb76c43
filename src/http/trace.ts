// `--debug`: one stderr line per request, response and retry. Secrets never
// reach it: the Authorization header is not printed and any occurrence of the
// key in traced text (a URL, an echoed message) is replaced, and so is the
// user and password of any URL (a base URL may carry them).

import { redactUrlCredentials } from './url.js';

export type DebugSink = ((line: string) => void) | undefined;

export interface Tracer {
  readonly enabled: boolean;
  line(text: string): void;
}

export function createTracer(sink: DebugSink, secrets: Array<string | undefined>): Tracer {
  const redact = redactor(secrets);
  return {
    enabled: sink !== undefined,
    line(text) {
      sink?.(redactUrlCredentials(redact(text)));
    },
  };
}

/** Replaces every occurrence of each secret (at least 4 characters long) with a marker. */
export function redactor(secrets: Array<string | undefined>): (text: string) => string {
  const words = secrets
    .filter((s): s is string => typeof s === 'string' && s.length >= 4)
    .flatMap((s) => (encodeURIComponent(s) === s ? [s] : [s, encodeURIComponent(s)]));
  if (!words.length) return (text) => text;
  return (text) => words.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}
