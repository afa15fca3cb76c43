// The program: from the command line to the command that runs, and the single
// path from "something went wrong" to an exit code. `run` is what the binary
// calls and what tests call in-process with fake streams; it never exits the
// process itself. Commander reads every command line, with only the group it
// names registered (commander.ts); commander loads with the program, the
// group's module when it is named (groups.ts).
import type { Context, Editor, Prompter } from '../context.js';
import type { Clock } from '../http/clock.js';
import type { CommandSpec } from '../kit/define.js';
import { abortError, ExitCode } from '../errors.js';
import type { Streams } from '../io/terminal.js';
import { extractJsonFields, groupWordIn, operandsAfter } from './argv.js';
import { jsonRequested, toGlobalFlags } from './global-flags.js';
import { ParseFailure, type Invocation } from './option-values.js';
import { loadGroup } from './groups.js';
import { findGroup } from './manifest.js';
import { recoverFromMisfit } from '../io/output.js';
import { abandonUnwritten, bindSignal, guardStream, settled, writeFailure } from '../io/streams.js';
import { colorEnabled, envFlag } from '../io/terminal.js';
import { commandDeadline } from '../http/deadline.js';
import { createContext } from './runtime.js';
import { readCommandLine, showRootHelp } from './commander.js';
import { reportError } from '../io/report.js';
import { parseErrorOf } from './parse-errors.js';

export interface RunOptions extends Streams {
  /** The user's arguments (process.argv.slice(2)). */
  argv: string[];
  env: NodeJS.ProcessEnv;
  version: string;
  /** What --version prints (default: the version alone). */
  versionText?: string;
  /** Aborted on the first Ctrl-C. */
  signal?: AbortSignal;
  /** When the command began (epoch ms; the binary gives its process's start): --timeout counts from it. Now by default. */
  startedAt?: number;
  /**
   * Called before a command that runs until interrupted (`endsOnInterrupt`, e.g. the sandbox)
   * starts: the binary then lets SIGTERM and SIGHUP end it the way Ctrl-C does.
   */
  onLongRunning?: () => void;
  /** The working directory and the operating system the command runs in (default: the process's). */
  cwd?: string;
  platform?: NodeJS.Platform;
  /** Test seams. */
  overrides?: { prompter?: Prompter; editor?: Editor; clock?: Clock };
  /** Set while a pager runs (the binary then leaves Ctrl-C to the pager). */
  pagerHold?: { running: boolean };
}

const isVersionFlag = (arg: string) => arg === '--version' || arg === '-V';

export async function run(options: RunOptions): Promise<number> {
  const { env, version } = options;
  const signal = options.signal ?? new AbortController().signal;
  let argv = options.argv;
  let flags: Context['flags'] | undefined;

  try {
    // Watched from the start: help written into a full disk is a failure too.
    guardStream(options.stdout);
    guardStream(options.stderr);
    // `kagent --version --json` (or --jq) is `kagent version --json`: JSON asked for, JSON given.
    if (!groupWordIn(argv) && argv.some(isVersionFlag) && argv.some((arg) => /^--(json|jq)(=|$)/.test(arg)))
      argv = ['version', ...argv.filter((arg) => !isVersionFlag(arg))];
    let word = groupWordIn(argv);
    let groupName = word?.name;
    // `kagent help` is `kagent --help`; `kagent help <group> [sub]` is `kagent <group> [sub] --help`.
    if (word && groupName === 'help') {
      const topic = operandsAfter(argv, word.index)[0];
      if (topic === undefined) {
        showRootHelp(options);
        return await helpWritten(options);
      }
      // `status` (below) too: `kagent help status` is `kagent status --help`.
      if ((findGroup(topic) || topic === 'status') && topic !== 'help') {
        argv = [...argv.slice(0, word.index), ...argv.slice(word.index + 1), '--help'];
        groupName = topic;
        word = groupWordIn(argv);
      }
    }
    // `kagent status` is `kagent home` (the word where the group stands, not a profile or an operand named so).
    if (word && groupName === 'status') {
      argv = argv.map((token, i) => (i === word.index ? 'home' : token));
      groupName = 'home';
    }
    const entry = findGroup(groupName);
    let group: CommandSpec | undefined;
    let jsonFields: string[] | undefined;
    if (entry) {
      group = await loadGroup(entry.name);
      ({ argv, fields: jsonFields } = extractJsonFields(argv, group));
    }
    const read = await readCommandLine(options, argv, group);
    if (!read) return await helpWritten(options);

    flags = { ...toGlobalFlags(read.globals, envFlag(env, 'KAGENT_DEBUG')), ...(jsonFields ? { jsonFields } : {}) };
    const ctx = createContext({
      streams: options,
      env,
      flags,
      signal: commandSignalOf(read.invocation, flags.timeout, options, signal),
      version,
      cwd: options.cwd,
      platform: options.platform,
      overrides: options.overrides,
      pagerHold: options.pagerHold,
      revealsKey: read.invocation.spec.revealsKey,
    });
    return await invoke(read.invocation, ctx, options, signal);
  } catch (caught) {
    let error = caught;
    if (isHelpOrVersion(error)) {
      const failed = await writeFailure(options.stdout);
      if (!failed) return ExitCode.OK;
      error = failed;
    }
    return reportError(await toUsage(error), {
      stderr: options.stderr,
      // The JSON envelope is for a program reading stderr; a person at a terminal reads the text (docs/output.md).
      json: (flags ? flags.json : jsonRequested(argv)) && options.stderr.isTTY !== true,
      color: colorEnabled(options.stderr.isTTY === true, env, flags ? flags.color : !argv.includes('--no-color')),
      debug: flags ? flags.debug : argv.includes('--debug') || envFlag(env, 'KAGENT_DEBUG'),
      interrupted: signal.aborted,
    });
  }
}

/** Help was shown: success, unless it could not be written (then that error). */
async function helpWritten(options: RunOptions): Promise<number> {
  const failed = await writeFailure(options.stdout);
  if (failed) throw failed;
  return ExitCode.OK;
}

/**
 * The command's signal: Ctrl-C, and --timeout's one deadline for the whole command (deadline.ts),
 * a server-like command aside. A reader that takes nothing of the output holds the command no
 * longer than that (streams.ts); a server-like command still says its last words after Ctrl-C.
 */
function commandSignalOf(
  found: Invocation,
  timeout: number | undefined,
  options: RunOptions,
  interrupt: AbortSignal,
): AbortSignal {
  if (found.spec.endsOnInterrupt) return interrupt;
  const signal = timeout !== undefined ? commandDeadline(interrupt, timeout * 1000, options.startedAt) : interrupt;
  bindSignal(options.stdout, signal);
  bindSignal(options.stderr, signal);
  return signal;
}

/** Runs the command found, then makes sure what it wrote is out; Ctrl-C makes it 130 (a server's end is 0). */
async function invoke(found: Invocation, ctx: Context, options: RunOptions, interrupt: AbortSignal): Promise<number> {
  if (found.spec.endsOnInterrupt) options.onLongRunning?.();
  try {
    try {
      if (found.spec.pager) await ctx.io.page();
      await found.spec.run?.(ctx, found.opts, found.args);
    } catch (error) {
      // Tolerant reading: a failure over an answer that did not fit its shape shows that answer instead.
      if (!(await recoverFromMisfit(ctx, error))) throw error;
    } finally {
      // What was held for the pager is written (or the pager is waited for) before any error is reported.
      await ctx.io.endPaging();
    }
    await Promise.all([settled(options.stdout), settled(options.stderr)]);
    // Its output not taken by the deadline (or Ctrl-C): the run did not deliver it.
    if (ctx.signal.aborted && !found.spec.endsOnInterrupt && options.stdout.writableLength > 0)
      throw abortError(ctx.signal);
  } catch (error) {
    // Stopped with output the reader has not taken: dropped, not waited for at the exit.
    if (ctx.signal.aborted && !found.spec.endsOnInterrupt) abandonUnwritten(options.stdout);
    throw error;
  }
  // (Ctrl-C only: a command that finished despite its --timeout running out has succeeded.)
  if (interrupt.aborted && !found.spec.endsOnInterrupt) return ExitCode.INTERRUPTED;
  return ExitCode.OK;
}

function commanderErrorOf(error: unknown): { code: string; message: string } | undefined {
  return error instanceof ParseFailure ? error.commanderError : undefined;
}

/** Help and version (and a group named without its subcommand, which shows help) end with success. */
function isHelpOrVersion(error: unknown): boolean {
  const code = commanderErrorOf(error)?.code;
  return code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help';
}

/** Commander's parse errors are usage errors: exit 2 (commander itself uses 1), with a pointer to the command's help. */
async function toUsage(error: unknown): Promise<unknown> {
  const commanderError = commanderErrorOf(error);
  if (!commanderError) return error;
  const path = error instanceof ParseFailure ? error.commandPath : 'kagent';
  return parseErrorOf(commanderError.code, commanderError.message, path);
}
