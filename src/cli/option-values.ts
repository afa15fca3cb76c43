// How an option's values are parsed and checked (choices, number bounds,
// repetition), what a command found on the command line carries, and the
// failure commander reports a mistake with.
import type { CommanderError } from 'commander';
import { ExitCode } from '../errors.js';
import type { CommandSpec, OptionSpec } from '../kit/define.js';

/** A command found on the command line, with what it was given. */
export interface Invocation {
  spec: CommandSpec;
  opts: Record<string, unknown>;
  args: Record<string, unknown>;
}

/** A commander parse failure, with the command it happened in (for the hint). */
export class ParseFailure extends Error {
  constructor(
    readonly commanderError: CommanderError,
    readonly commandPath: string,
  ) {
    super(commanderError.message);
  }
}

/** --timeout's upper bound, in seconds: what a timer can hold (2^31 − 1 ms, 24.8 days). */
export const MAX_TIMEOUT_S = 2_147_483;

/** The parser of the root's --timeout. */
export const timeoutParser = () => numberParser({ type: 'number', min: 0.001, max: MAX_TIMEOUT_S });

/** 'base-url' → 'baseUrl', as commander names values. */
export function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** A value commander reports as "option '--limit <n>' argument 'x' is invalid. <message>". */
export function invalid(message: string): Error {
  return Object.assign(new Error(message), { code: 'commander.invalidArgument', exitCode: ExitCode.USAGE });
}

/** How a declared option's value is read: its choices, its number type and bounds, repetition. Throws `invalid`. */
export function valueParser(spec: OptionSpec): (value: string, previous: unknown) => unknown {
  const parseOne =
    spec.parse ?? (spec.type === 'integer' || spec.type === 'number' ? numberParser(spec) : (value: string) => value);
  return (value, previous) => {
    if (spec.choices && !spec.choices.includes(value)) throw invalid(`must be one of: ${spec.choices.join(', ')}`);
    const parsed = parseOne(value);
    if (!spec.repeatable) return parsed;
    // The default (if any) is replaced by the first value given, not appended to.
    return Array.isArray(previous) && previous !== spec.default ? [...previous, parsed] : [parsed];
  };
}

export function numberParser(spec: Pick<OptionSpec, 'type' | 'min' | 'max'>): (value: string) => number {
  return (value) => {
    const integer = spec.type === 'integer';
    const parsed = Number(value.trim());
    const ok = value.trim() !== '' && Number.isFinite(parsed) && (!integer || Number.isInteger(parsed));
    const inRange =
      ok && (spec.min === undefined || parsed >= spec.min) && (spec.max === undefined || parsed <= spec.max);
    if (!inRange) {
      const kind = integer ? 'an integer' : 'a number';
      throw invalid(`It must be ${kind}${rangeWords(spec.min, spec.max)}.`);
    }
    return parsed;
  };
}

/** The bounds a number must keep, as the message says them (a minimum between 0 and 1 reads "greater than 0"). */
function rangeWords(min: number | undefined, max: number | undefined): string {
  const upper = max !== undefined ? ` and at most ${max}` : '';
  if (min !== undefined && min > 0 && min < 1) return ` greater than 0${upper}`;
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}
