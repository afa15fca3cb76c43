// Answers that did not fit their assumed shape, as the client met them. Plain
// data with no imports: the output layer asks "did this answer fit?" without
// loading the shapes. The client marks each answer it checked.
import { CliError, ExitCode } from '../errors.js';
import type { Difference, Verdict } from './fit.js';

export interface Misfit extends Verdict {
  /** The answer as it came (parsed JSON). */
  body: unknown;
}

const byBody = new WeakMap<object, Misfit>();

export function markMisfit(misfit: Misfit): void {
  if (typeof misfit.body === 'object' && misfit.body !== null) byBody.set(misfit.body, misfit);
}

/** The misfit recorded for this answer object, if it did not fit. */
export function misfitOf(value: unknown): Misfit | undefined {
  return typeof value === 'object' && value !== null ? byBody.get(value) : undefined;
}

/** The one-line note for stderr: names the operation and what differed. */
export function misfitNote(misfit: Misfit, describe: (m: Misfit) => string): string {
  return `note: the service's ${misfit.shape} differs from what kagent knows (${describe(misfit)}): shown as it came`;
}

/** "missing: watch; extra: slug, title; retyped: brief.date (string → integer)" — at most `max` paths a kind. */
export function describeDifferences(differences: Difference[], max = 6): string {
  const parts: string[] = [];
  for (const kind of ['missing', 'retyped', 'extra'] as const) {
    const these = differences.filter((d) => d.kind === kind);
    if (these.length === 0) continue;
    const shown = these
      .slice(0, max)
      .map((d) => (kind === 'retyped' ? `${d.path} (${d.expected} → ${d.got})` : d.path));
    parts.push(`${kind}: ${shown.join(', ')}${these.length > max ? `, … ${these.length - max} more` : ''}`);
  }
  return parts.join('; ');
}

/** A list operation answered with something that is not a list: a clear error, with the answer kept for --json. */
export class NotAListError extends CliError {
  readonly answer: unknown;
  constructor(op: string, answer: unknown) {
    super(`${op}: the service's answer is not a list (no \`items\` array in it)`, {
      exitCode: ExitCode.ERROR,
      code: 'NOT_A_LIST',
      hint: 'run the same command with --json to see the answer as it came, or --debug for what differed',
    });
    this.name = 'NotAListError';
    this.answer = answer;
  }
}
