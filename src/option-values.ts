// What an option's declaration means, read the way commander reads it, and how
// its values are parsed: one definition for both readers of the command line
// (src/command-line.ts, which runs commands, and src/register.ts, which gives
// commander the same declarations for help and for the errors it reports).
import type { CommanderError } from 'commander';
import { ExitCode } from './errors.js';
import type { CommandSpec, OptionSpec } from './kit/define.js';

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

export interface FlagShape {
  short?: string;
  long?: string;
  /** `<value>`: required; `[value]`: optional. */
  value: 'none' | 'required' | 'optional';
  negate: boolean;
  variadic: boolean;
  /** commander's name(): the long flag without dashes, else the short one. */
  name: string;
  /** The key of its value: 'base-url' → 'baseUrl', '--no-wait' → 'wait'. */
  attribute: string;
}

/** A declaration's flags as commander's Option reads them ('-L, --limit <n>', '--no-wait', '--json [fields]'). */
export function flagShape(flags: string): FlagShape {
  const parts = flags.split(/[ |,]+/);
  const shortFlag = /^-[^-]$/;
  const longFlag = /^--[^-]/;
  let short: string | undefined;
  let long: string | undefined;
  if (shortFlag.test(parts[0] ?? '')) short = parts.shift();
  if (longFlag.test(parts[0] ?? '')) long = parts.shift();
  if (!short && shortFlag.test(parts[0] ?? '')) short = parts.shift();
  const value = flags.includes('<') ? 'required' : flags.includes('[') ? 'optional' : 'none';
  const negate = long?.startsWith('--no-') === true;
  const name = long ? long.replace(/^--/, '') : (short ?? '').replace(/^-/, '');
  return { short, long, value, negate, variadic: /\w\.\.\.[>\]]$/.test(flags), name, attribute: camelCase(negate ? name.replace(/^no-/, '') : name) };
}

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
  const parseOne = spec.type === 'integer' || spec.type === 'number' ? numberParser(spec) : (value: string) => value;
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
    const inRange = ok && (spec.min === undefined || parsed >= spec.min) && (spec.max === undefined || parsed <= spec.max);
    if (!inRange) {
      const kind = integer ? 'an integer' : 'a number';
      const aboveZero = spec.min !== undefined && spec.min > 0 && spec.min < 1;
      const upper = spec.max !== undefined ? ` and at most ${spec.max}` : '';
      const range = aboveZero
        ? ` greater than 0${upper}`
        : spec.min !== undefined && spec.max !== undefined
          ? ` from ${spec.min} to ${spec.max}`
          : spec.min !== undefined
            ? ` of at least ${spec.min}`
            : spec.max !== undefined
              ? ` of at most ${spec.max}`
              : '';
      throw invalid(`It must be ${kind}${range}.`);
    }
    return parsed;
  };
}
