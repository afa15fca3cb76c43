// The root's flags, in one table: the root help lists them, commander declares
// them, the scan of the command line (argv.ts) knows from it which of them take
// a value, registering a command refuses a flag that clashes with one, and the
// Context's GlobalFlags are read from commander's values by it. Nothing here
// imports anything: `kagent --help` reads this module before any other.
import type { GlobalFlags } from '../context.js';

export interface GlobalFlag {
  /** Commander syntax. */
  flags: string;
  description: string;
  choices?: readonly string[];
  /** What the shell completion offers for its value (see CompleteKind in src/kit/define.ts). */
  complete?: 'profile';
}

export const GLOBAL_FLAGS_HEADING = 'Global flags (work with every command):';

export const GLOBAL_FLAGS: readonly GlobalFlag[] = [
  {
    flags: '--json [fields]',
    description: "print the API's JSON (pretty on a terminal, compact when piped); --json id,title keeps those fields",
  },
  { flags: '--jq <expr>', description: 'filter the JSON with a jq expression (implies --json)' },
  {
    flags: '-p, --profile <name>',
    description: 'use this profile (default: the current one; env KAGENT_PROFILE)',
    complete: 'profile',
  },
  { flags: '--base-url <url>', description: 'API base URL for this run (env KAGENT_BASE_URL)' },
  { flags: '--lang <lang>', description: 'content language for writes (env KAGENT_LANG)', choices: ['zh', 'en'] },
  { flags: '--no-color', description: 'no colour (also NO_COLOR=1)' },
  { flags: '--no-input', description: 'never prompt; missing input is an error (also KAGENT_NO_PROMPT=1)' },
  { flags: '--no-pager', description: 'never page long output (also PAGER=cat; see KAGENT_PAGER)' },
  { flags: '-y, --yes', description: 'confirm destructive or costly steps without asking' },
  { flags: '-q, --quiet', description: 'print results only: no notes, no spinners' },
  { flags: '--debug', description: 'trace HTTP requests on stderr, API key masked (also KAGENT_DEBUG=1)' },
  {
    flags: '--timeout <seconds>',
    description:
      'a deadline for the whole command, in seconds (exit 8 when work followed is still running; 7 when a request did not finish)',
  },
  { flags: '--insecure', description: 'allow plain http:// to a host that is not this machine' },
];
export const VERSION_FLAG: GlobalFlag = { flags: '-V, --version', description: 'print the version' };
export const HELP_FLAG: GlobalFlag = { flags: '-h, --help', description: 'show help (also `kagent help <command>`)' };

/** What one row of the table declares, read as commander reads `-p, --profile <name>`. */
export interface GlobalFlagShape {
  short?: string;
  long: string;
  /** The key of its value in commander's opts(): 'base-url' → 'baseUrl', '--no-color' → 'color'. */
  attribute: string;
  value: 'none' | 'required' | 'optional';
  /** Declared only as --no-X. */
  negate: boolean;
}

export function shapeOf(flag: GlobalFlag): GlobalFlagShape {
  const short = /^-[^-]\b/.exec(flag.flags)?.[0];
  const long = /--[\w-]+/.exec(flag.flags)?.[0] as string;
  const negate = long.startsWith('--no-');
  const name = long.slice(negate ? 5 : 2);
  const value = valueOf(flag.flags);
  return { short, long, attribute: name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()), value, negate };
}

/** '--x <v>' takes a value, '--x [v]' may, '--x' takes none. */
function valueOf(flags: string): GlobalFlagShape['value'] {
  if (flags.includes('<')) return 'required';
  if (flags.includes('[')) return 'optional';
  return 'none';
}

const SHAPES = [...GLOBAL_FLAGS, VERSION_FLAG, HELP_FLAG].map(shapeOf);

/** `--profile`, `-p`, `--jq`, …: the global flags whose value is the next word. (`--json [fields]` is read apart.) */
export const VALUE_FLAGS: ReadonlySet<string> = new Set(
  SHAPES.filter((shape) => shape.value === 'required').flatMap((shape) =>
    shape.short ? [shape.short, shape.long] : [shape.long],
  ),
);

/** The letters of short global flags that take a value (`-p`): in a cluster (`-qp NAME`) the last one takes the next word. */
export const SHORT_VALUE_LETTERS: ReadonlySet<string> = new Set(
  SHAPES.filter((shape) => shape.value === 'required' && shape.short).map((shape) => (shape.short as string).slice(1)),
);

/** The root's attribute names and short flags: a command must not declare them again (checked when registering). */
export const GLOBAL_ATTRIBUTES: ReadonlySet<string> = new Set(SHAPES.map((shape) => shape.attribute));
export const GLOBAL_SHORT_FLAGS: ReadonlySet<string> = new Set(
  SHAPES.flatMap((shape) => (shape.short ? [shape.short] : [])),
);
/** Globals that exist only as --no-X: a command's own --X <value> (`api --input FILE`) is another flag, which commander tells apart. */
export const NEGATE_ONLY_ATTRIBUTES: ReadonlySet<string> = new Set(
  SHAPES.filter((shape) => shape.negate).map((shape) => shape.attribute),
);

/** Whether a command line asks for JSON (for an error reported before commander has read it). */
export function jsonRequested(argv: readonly string[]): boolean {
  return argv.some(
    (token) => token === '--json' || token.startsWith('--json=') || token === '--jq' || token.startsWith('--jq='),
  );
}

/** The Context's flags from the root's values as commander read them (`--json=` with fields read apart). */
export function toGlobalFlags(opts: Record<string, unknown>, debugFromEnv: boolean): GlobalFlags {
  const jq = typeof opts.jq === 'string' ? opts.jq : undefined;
  return {
    json: opts.json === true || typeof opts.json === 'string' || jq !== undefined,
    jq,
    profile: opts.profile as string | undefined,
    baseUrl: opts.baseUrl as string | undefined,
    lang: opts.lang as GlobalFlags['lang'],
    color: opts.color !== false,
    input: opts.input !== false,
    pager: opts.pager !== false,
    yes: opts.yes === true,
    quiet: opts.quiet === true,
    debug: opts.debug === true || debugFromEnv,
    timeout: opts.timeout as number | undefined,
    insecure: opts.insecure === true,
  };
}
