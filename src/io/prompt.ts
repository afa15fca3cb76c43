// Prompts, only where a person can answer: stdin and stdout are terminals and
// neither --no-input, KAGENT_NO_PROMPT nor CI says otherwise. (@inquirer/prompts
// has no such check: with a piped stdin it takes the pipe as the answer, with
// an idle one it hangs.) Prompts render on stderr so stdout stays the result.
// Ctrl-C in a prompt is an interruption (exit 130). Commands use the helpers
// below, which name the flag to pass instead when prompting is not possible.
// Each kind of prompt loads its own package (@inquirer/confirm, …) when first
// shown, not the @inquirer/prompts barrel, which loaded every prompt (769 KB).
import type { Context, IO, Prompter } from '../context.js';
import { CliError, InterruptedError, UsageError, onInterruptSay } from '../errors.js';
import { sanitizeStyled } from './sanitize.js';
import { promptBlocker, terminalState } from './terminal.js';
import { loadPrompt } from '../lazy.js';

export function createPrompter(io: IO, signal: AbortSignal, flags: { color: boolean; input: boolean }): Prompter {
  // Made when a prompt shows: reading io.stdin creates the process's stdin, which a command that never prompts should not pay for.
  const context = () => ({ input: io.stdin, output: io.stderr, signal, clearPromptOnDone: false });

  async function ask<M, T>(
    raw: string,
    load: () => Promise<M>,
    show: (prompt: M, message: string) => Promise<T>,
  ): Promise<T> {
    // Prompts often quote the service (a space's name, an action's title): no control reaches the terminal.
    const message = sanitizeStyled(raw);
    if (!io.canPrompt) {
      const why = whyNoPrompt({ io, flags });
      throw new UsageError(`cannot ask "${message}": ${why}`);
    }
    const prompt = await load();
    const terminal = terminalState(io);
    terminal.spinner?.pause();
    terminal.prompting = true;
    // Ctrl-D (the input ended) closes the prompt's reader without an answer or an error, and
    // the process would then end with exit 0 as if it had been answered: when nothing is left
    // to run while the prompt waits, it was not answered, and the run is cancelled.
    let unanswered: () => void = () => {};
    const ended = new Promise<never>((_, reject) => {
      unanswered = () => reject(new CliError(`no answer to "${message}": the input ended`, { code: 'CANCELLED' }));
      process.once('beforeExit', unanswered);
    });
    try {
      return await Promise.race([show(prompt, message), ended]);
    } catch (error) {
      const name = (error as Error | undefined)?.name;
      if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError')
        throw new InterruptedError();
      throw error;
    } finally {
      process.off('beforeExit', unanswered);
      terminal.prompting = false;
      terminal.spinner?.resume();
    }
  }

  return {
    text: (raw, options = {}) =>
      ask(raw, loadPrompt.input, (p, message) =>
        p.default({ message, default: options.default, validate: options.validate }, context()),
      ),
    password: (raw) => ask(raw, loadPrompt.password, (p, message) => p.default({ message, mask: '*' }, context())),
    confirm: (raw, options = {}) =>
      ask(raw, loadPrompt.confirm, (p, message) =>
        p.default({ message, default: options.default ?? false }, context()),
      ),
    select: (raw, choices, options) =>
      ask(raw, loadPrompt.select, (p, message) =>
        p.default(
          {
            message,
            choices: choices.map((c) => ({
              ...c,
              name: sanitizeStyled(c.name),
              ...(c.description !== undefined ? { description: sanitizeStyled(c.description) } : {}),
            })),
            ...(options?.default !== undefined ? { default: options.default } : {}),
          },
          context(),
        ),
      ),
  };
}

type PromptContext = Pick<Context, 'io' | 'prompter' | 'flags'>;

/** Why nothing can be asked here (stdin not a terminal, --no-input, CI…), for a refusal's message. */
export function whyNoPrompt(ctx: {
  io: Pick<Context['io'], 'stdinIsTTY' | 'stdoutIsTTY' | 'env'>;
  flags: Parameters<typeof promptBlocker>[3];
}): string {
  return promptBlocker(ctx.io.stdinIsTTY, ctx.io.stdoutIsTTY, ctx.io.env, ctx.flags) ?? 'no terminal';
}

function cannotAsk(ctx: PromptContext, what: string, flag: string): UsageError {
  const why = whyNoPrompt(ctx);
  return new UsageError(`${what} is required: pass ${flag} (cannot prompt: ${why})`);
}

/** Asks for a value on a terminal; elsewhere a usage error naming the flag that supplies it. */
export async function askText(
  ctx: PromptContext,
  options: {
    message: string;
    flag: string;
    what?: string;
    default?: string;
    validate?: (value: string) => true | string;
  },
): Promise<string> {
  if (!ctx.io.canPrompt) throw cannotAsk(ctx, options.what ?? options.flag, options.flag);
  return ctx.prompter.text(options.message, { default: options.default, validate: options.validate });
}

/** A masked prompt (API keys); elsewhere a usage error naming the flag. */
export async function askSecret(
  ctx: PromptContext,
  options: { message: string; flag: string; what?: string },
): Promise<string> {
  if (!ctx.io.canPrompt) throw cannotAsk(ctx, options.what ?? options.flag, options.flag);
  return ctx.prompter.password(options.message);
}

/**
 * Destructive or costly steps: --yes goes ahead; a terminal asks (default no);
 * anywhere else it is a usage error that names --yes. Saying no stops with
 * exit 1 (CANCELLED) and nothing done; Ctrl-C at the question stops with exit 130,
 * its one quiet line saying so ("did not delete profile "x"").
 */
export async function confirmOrYes(
  ctx: PromptContext,
  options: {
    message: string;
    action: string;
    /** What else avoids the question, for the refusal's hint. */ hint?: string;
  },
): Promise<void> {
  if (ctx.flags.yes) return;
  if (!ctx.io.canPrompt) {
    const why = whyNoPrompt(ctx);
    throw new UsageError(
      `refusing to ${options.action} without confirmation: pass --yes (cannot prompt: ${why})`,
      options.hint,
    );
  }
  const yes = await onInterruptSay(`did not ${options.action}`, () =>
    ctx.prompter.confirm(options.message, { default: false }),
  );
  if (!yes) throw new CliError(`did not ${options.action}`, { code: 'CANCELLED' });
}
