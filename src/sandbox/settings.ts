// The sandbox's settings as `kagent sandbox` takes them (flag, description, bounds,
// default), beside the defaults startSandbox() uses: one place for both. The flags
// are plain data in the shape of the command kit's option declarations.
import { parseFaultSpec } from './faults.js';

/** What startSandbox() uses for a setting left out (the flags below default to the same). */
export const SANDBOX_DEFAULTS = { seed: 1, speed: 1, rateLimit: 60, errorFormat: 'envelope' } as const;

export const settingFlags = [
  {
    flags: '--state <file>',
    description:
      'keep state in this file (journal in FILE.journal, uploads in FILE.blobs): reloaded on start, every write saved before it is answered',
  },
  {
    flags: '--seed <n>',
    description: 'seed for generated content and ids (same seed, same sandbox)',
    type: 'integer',
    min: 0,
    default: SANDBOX_DEFAULTS.seed,
  },
  {
    flags: '--speed <x>',
    description: 'clock multiplier: 60 makes a sandbox minute pass every second',
    type: 'number',
    min: 0.001,
    max: 1_000_000,
    default: SANDBOX_DEFAULTS.speed,
  },
  {
    flags: '--rate-limit <n>',
    description: 'requests per minute per account (0 turns the limit off)',
    type: 'integer',
    min: 0,
    default: SANDBOX_DEFAULTS.rateLimit,
  },
  {
    flags: '--faults <spec>',
    description:
      'inject failures by probability, e.g. 503=0.1,reset=0.05,slow=0.1:1500,truncate=0.05; shape=0.2 changes the shape of answers',
  },
  {
    flags: '--error-format <format>',
    description: 'error bodies: the envelope {error:{code,message}} or RFC 9457 problem documents',
    choices: ['envelope', 'problem'],
    default: SANDBOX_DEFAULTS.errorFormat,
  },
  { flags: '--api-key <key>', description: 'the API key of the default account (a random kak_ key otherwise)' },
] as const;

/** What is wrong with settings given as text (a --faults spec that does not parse), before anything starts. */
export function settingsProblem(settings: { faults?: string | undefined }): string | undefined {
  if (settings.faults === undefined) return undefined;
  try {
    parseFaultSpec(settings.faults);
    return undefined;
  } catch (error) {
    return `--faults: ${(error as Error).message}`;
  }
}
