// Idempotency for create-style calls: the same key within 24 hours replays the
// first answer (`idempotent-replayed: true`); a different body is 422; a retry
// while the first call still runs is 409 IDEMPOTENCY_IN_PROGRESS.
import { createHash } from 'node:crypto';
import { limits } from '../api/shapes.js';
import { HttpFail, type IdempotencyRecord, type Reply } from './types.js';
import type { World } from './world.js';

export type IdempotencyOutcome = { replay: Reply } | { reserved: string };

/** A hash of what makes two requests "the same": key order in JSON objects does not count. */
export function fingerprint(parts: unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(parts)))
    .digest('base64url');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function checkKey(key: string): void {
  if (key.length === 0 || key.length > limits.idempotencyKeyMax) {
    throw new HttpFail(400, 'INVALID_INPUT', 'Invalid input', {
      issues: [{ path: 'Idempotency-Key', message: `must be 1 to ${limits.idempotencyKeyMax} characters` }],
    });
  }
}

/** Looks the key up; when it is new, reserves it as running and returns its slot. */
export function begin(world: World, slot: string, print: string): IdempotencyOutcome {
  const now = world.clock.now();
  const existing = world.state.idempotency[slot];
  if (existing && now - existing.at < limits.idempotencyWindowMs) {
    if (existing.fingerprint !== print) {
      throw new HttpFail(422, 'IDEMPOTENCY_MISMATCH', 'This Idempotency-Key was used with a different request body');
    }
    if (existing.status === 'running' || !existing.response) {
      throw new HttpFail(
        409,
        'IDEMPOTENCY_IN_PROGRESS',
        'A request with this Idempotency-Key is still being processed; retry shortly',
        {},
        { 'retry-after': '1' },
      );
    }
    const { status, headers, body } = existing.response;
    return { replay: { status, body, headers: { ...headers, 'idempotent-replayed': 'true' } } };
  }
  world.state.idempotency[slot] = { fingerprint: print, status: 'running', at: now };
  return { reserved: slot };
}

/** Stores the answer of a successful first call; a failed one frees the key for a retry. */
export function finish(world: World, slot: string, reply: Reply | undefined): void {
  const record: IdempotencyRecord | undefined = world.state.idempotency[slot];
  if (!record) return;
  if (!reply || (reply.status ?? 200) >= 400) {
    delete world.state.idempotency[slot];
  } else {
    record.status = 'done';
    record.response = { status: reply.status ?? 200, headers: reply.headers ?? {}, body: reply.body };
  }
  world.changed();
}

/** Forgets keys older than the window (called now and then, not per request). */
export function sweep(world: World): void {
  const cutoff = world.clock.now() - limits.idempotencyWindowMs;
  for (const [slot, record] of Object.entries(world.state.idempotency))
    if (record.at < cutoff) delete world.state.idempotency[slot];
}
