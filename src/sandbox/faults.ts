// Fault injection, for trying scripts against a flaky service: by probability
// (`--faults 503=0.1,reset=0.05,slow=0.1:1500,truncate=0.05`) or for the next N
// requests (admin route), optionally only for one method and path prefix.
// `shape` does not fail the request: its answer comes back with a changed shape
// (fields removed, renamed, retyped, nested, flattened or added; see shape-chaos.ts).
import type { FaultKind, FaultRequest } from './public.js';
import { mangle } from './shape-chaos.js';

export const FAULT_KINDS = [
  '503',
  '502',
  '504',
  '429',
  '500',
  'reset',
  'slow',
  'truncate',
  'reset-after',
  'shape',
] as const satisfies readonly FaultKind[];
export type { FaultKind };

export interface Fault {
  kind: FaultKind;
  /** For `slow`: how long to wait before answering. */
  ms?: number;
}

interface Queued extends Fault {
  remaining: number;
  method?: string;
  path?: string;
}

export class Faults {
  private readonly odds: Array<{ kind: FaultKind; p: number; ms?: number }> = [];
  private queue: Queued[] = [];

  constructor(
    spec: string | undefined,
    private readonly random: () => number,
  ) {
    if (spec) this.odds = parseFaultSpec(spec);
  }

  /** Queue: the next `count` matching requests fail with `kind`. */
  inject(fault: FaultRequest): void {
    if (!FAULT_KINDS.includes(fault.kind))
      throw new Error(`unknown fault ${fault.kind}; one of ${FAULT_KINDS.join(', ')}`);
    this.queue.push({ ...fault, remaining: fault.count ?? 1 });
  }

  /** A shape-chaos copy of an answer body, from the same seeded stream as the odds. */
  mangle(body: unknown): unknown {
    return mangle(body, this.random).body;
  }

  clear(): void {
    this.queue = [];
  }

  /** The fault this request gets, if any. */
  pick(method: string, path: string): Fault | undefined {
    const queued = this.queue.find((q) => (!q.method || q.method === method) && (!q.path || path.startsWith(q.path)));
    if (queued) {
      queued.remaining--;
      if (queued.remaining <= 0) this.queue.splice(this.queue.indexOf(queued), 1);
      return { kind: queued.kind, ms: queued.ms };
    }
    for (const odd of this.odds) if (this.random() < odd.p) return { kind: odd.kind, ms: odd.ms };
    return undefined;
  }
}

/** A fault's delay when the spec names none: only `slow` has one. */
const DEFAULT_MS: Partial<Record<FaultKind, number>> = { slow: 2000 };

export function parseFaultSpec(spec: string): Array<{ kind: FaultKind; p: number; ms?: number }> {
  return spec
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^([\w-]+)=([\d.]+)(?::(\d+))?$/.exec(part);
      const kind = match?.[1] as FaultKind | undefined;
      const p = Number(match?.[2]);
      if (!match || !kind || !FAULT_KINDS.includes(kind) || !(p >= 0 && p <= 1)) {
        throw new Error(
          `bad fault "${part}": use KIND=PROBABILITY[:MS] with KIND one of ${FAULT_KINDS.join(', ')} and PROBABILITY from 0 to 1`,
        );
      }
      return { kind, p, ms: match[3] ? Number(match[3]) : DEFAULT_MS[kind] };
    });
}
