// How deep an answer nests, found without recursion. Every walk over answer
// data (shape fitting, sanitising, rendering, JSON text for --json and jq)
// recurses, and a hostile answer (`{"a":[[[[…]]]]}`, 100,000 levels, a few
// hundred KB) would blow the stack in any of them. JSON.parse copes with it, so
// the client looks once, at the boundary: an answer deeper than MAX_ANSWER_DEPTH
// is a clear error, and nothing past the client ever sees one.
import { CliError, ExitCode } from '../errors.js';

/**
 * 128 levels: what jq's parser takes whatever the answer is made of (it stops at 256 entries of its stack, and an
 * object takes two), so whatever kagent reads goes through --jq too; serde_json's default; no real answer comes close.
 */
export const MAX_ANSWER_DEPTH = 128;

/** Whether a JSON value nests arrays/objects deeper than `limit` levels (`[]` is 1), with an explicit stack. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const node = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

export class AnswerTooDeepError extends CliError {
  constructor(what: string) {
    super(`${what}: the service's answer is nested deeper than ${MAX_ANSWER_DEPTH} levels`, {
      exitCode: ExitCode.ERROR,
      code: 'ANSWER_TOO_DEEP',
      hint: `kagent reads answers up to ${MAX_ANSWER_DEPTH} levels deep; this one is not a usable answer`,
    });
    this.name = 'AnswerTooDeepError';
  }
}

/** Throws AnswerTooDeepError for an answer nested deeper than MAX_ANSWER_DEPTH. */
export function checkAnswerDepth(what: string, body: unknown): void {
  if (nestedDeeperThan(body, MAX_ANSWER_DEPTH)) throw new AnswerTooDeepError(what);
}
