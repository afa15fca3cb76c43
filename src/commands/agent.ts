// `kagent agent`: your agent's name, memory (Markdown) and email address.
//   show     getAgent (memory rendered as Markdown on a terminal)
//   rename   updateAgent {name}
//   memory   updateAgent {memory}: --set TEXT, --append TEXT, --file PATH|-,
//            or (on a terminal, with none of those) $EDITOR on the current
//            memory. The size is checked against the agent's memoryMax before
//            anything is sent; a short summary of the change is printed.
// updateAgent answers 204: --json prints the Agent as it now stands.
import type { Context } from '../context.js';
import type { Agent } from '../api/shapes.js';
import { UsageError } from '../errors.js';
import type { Formatter } from '../io/format.js';
import { checkInput, defineCommand, defineGroup, InputError } from './define.js';

async function command(ctx: Pick<Context, 'flags'>, words: string): Promise<string> {
  const { kagentCommand } = await import('../io/task-follow.js');
  return kagentCommand(ctx, words);
}

async function getAgent(ctx: Context): Promise<Agent> {
  return (await ctx.api()).call('getAgent', { signal: ctx.signal });
}

// ---------------------------------------------------------------- show

async function renderAgent(ctx: Context, agent: Agent, f: Formatter): Promise<string> {
  const { charLength } = await import('../api/validate.js');
  const { sanitizeLine } = await import('../io/sanitize.js');
  const memory = typeof agent.memory === 'string' ? agent.memory : '';
  if (!f.tty) {
    const head = f.fields([
      ['name', agent.name],
      ['address', agent.address],
      ['memory-chars', String(charLength(memory))],
      ['memory-max', agent.memoryMax === undefined ? undefined : String(agent.memoryMax)],
    ]);
    return `${head}\n--\n${memory.replace(/\n+$/, '')}`;
  }
  const lines = [
    f.bold(sanitizeLine(agent.name ?? '')),
    f.fields([
      ['Address', `${sanitizeLine(agent.address ?? '')} ${f.dim('(email it to reach your agent)')}`],
      ['Memory', `${f.number(charLength(memory))}${typeof agent.memoryMax === 'number' ? ` of ${f.number(agent.memoryMax)}` : ''} characters`],
    ]),
    '',
  ];
  if (memory.trim() === '') {
    lines.push(f.dim(`No memory yet: add to it with \`${await command(ctx, 'agent memory --append TEXT')}\`, or tell the agent to remember something.`));
  } else {
    const { renderMarkdown } = await import('../io/markdown.js');
    lines.push((await renderMarkdown(ctx, memory)).replace(/\n+$/, ''));
  }
  return lines.join('\n');
}

const show = defineCommand({
  name: 'show',
  aliases: ['view'],
  summary: "Show your agent's name, email address and memory",
  description: 'Piped: label/value lines (name, address, memory-chars, memory-max), `--`, then the memory as Markdown. --json prints the Agent.',
  examples: ['kagent agent show', "kagent agent show --jq .address", 'kagent agent show | sed "1,/^--$/d" > memory.md'],
  async run(ctx) {
    const agent = await getAgent(ctx);
    const { printItem } = await import('../io/output.js');
    await printItem(ctx, agent, (a, f) => renderAgent(ctx, a, f));
  },
});

// ---------------------------------------------------------------- rename

const rename = defineCommand<Record<string, never>, { name: string }>({
  name: 'rename',
  summary: 'Give your agent a new name',
  description: 'Piped, prints the new name; --json prints the Agent.',
  arguments: [{ name: 'name', description: 'the new name (1 to 60 characters)' }],
  examples: ['kagent agent rename Ada', 'kagent agent rename "Research assistant" --json'],
  async run(ctx, _opts, args) {
    const S = await import('../api/shapes.js');
    const body = { name: args.name };
    checkInput(S.UpdateAgentRequest, body, { name: 'NAME' });
    if (args.name.trim() === '') throw new UsageError('NAME must not be blank');
    const before = await getAgent(ctx);
    await (await ctx.api()).call('updateAgent', { body, signal: ctx.signal });
    const after = await getAgent(ctx);
    const { printItem, success } = await import('../io/output.js');
    const { sanitizeLine } = await import('../io/sanitize.js');
    await printItem(ctx, after, (a, f) => (f.tty ? '' : a.name));
    await success(ctx, `Renamed your agent: ${sanitizeLine(before.name)} → ${sanitizeLine(after.name)}`);
  },
});

// ---------------------------------------------------------------- memory

interface MemoryOptions {
  set?: string;
  append?: string;
  file?: string;
}

/** Lines added and removed (as multisets: a moved line counts as neither). */
export function lineChanges(before: string, after: string): { added: number; removed: number } {
  const split = (text: string) => (text === '' ? [] : text.replace(/\n+$/, '').split('\n'));
  const counts = new Map<string, number>();
  for (const line of split(before)) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of split(after)) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else added++;
  }
  let removed = 0;
  for (const left of counts.values()) removed += left;
  return { added, removed };
}

async function readSource(ctx: Context, path: string): Promise<string> {
  const { readBounded, inputBounds } = await import('../io/input.js');
  return readBounded(ctx, path, '--file', (await inputBounds()).memory);
}

const memory = defineCommand<MemoryOptions>({
  name: 'memory',
  summary: "Change your agent's memory: set, append, from a file, or in $EDITOR",
  description:
    'The memory is Markdown the agent keeps in mind in every conversation. --set replaces it, --append adds a line at the end, ' +
    '--file replaces it with a file (- for stdin). With none of these, on a terminal, $VISUAL or $EDITOR opens on the current memory. ' +
    "The size is checked against the agent's memoryMax before anything is sent (exit 2 when over). It says how many lines were added and removed; " +
    'piped, it prints lines added, lines removed, characters and memoryMax, tab-separated; --json prints the Agent as it now stands.',
  options: [
    { flags: '--set <text>', description: 'replace the memory with TEXT' },
    { flags: '--append <text>', description: 'add TEXT as a new line at the end' },
    { flags: '--file <path>', description: 'replace the memory with the contents of PATH (- for stdin)' },
  ],
  examples: [
    'kagent agent memory',
    'kagent agent memory --append "- I prefer summaries in bullet points"',
    'kagent agent memory --file memory.md',
    'kagent agent show | sed "1,/^--$/d" > memory.md && $EDITOR memory.md && kagent agent memory --file memory.md',
  ],
  async run(ctx, opts) {
    const given = (['set', 'append', 'file'] as const).filter((key) => opts[key] !== undefined);
    if (given.length > 1) throw new UsageError(`use one of --set, --append and --file (got --${given.join(' and --')})`);
    const mode = given[0];
    if (mode === undefined && !ctx.io.canPrompt) {
      const { promptBlocker } = await import('../io/terminal.js');
      const why = promptBlocker(ctx.io.stdinIsTTY, ctx.io.stdoutIsTTY, ctx.io.env, ctx.flags) ?? 'no terminal';
      throw new UsageError(`nothing to change: pass --set TEXT, --append TEXT or --file PATH (no editor without a terminal: ${why})`);
    }
    const S = await import('../api/shapes.js');
    const { charLength } = await import('../api/validate.js');
    // What was given is read (and checked for the memory's fixed bound) before any request.
    let supplied: string | undefined;
    if (mode === 'set') supplied = opts.set;
    if (mode === 'append') supplied = opts.append;
    if (mode === 'file') supplied = await readSource(ctx, opts.file as string);
    const flag = mode ? `--${mode}` : 'the edited memory';

    const agent = await getAgent(ctx);
    const current = typeof agent.memory === 'string' ? agent.memory : '';
    const max = typeof agent.memoryMax === 'number' && agent.memoryMax > 0 ? agent.memoryMax : S.limits.memoryMax;
    let next: string;
    if (mode === 'append') {
      const base = current.replace(/\n+$/, '');
      next = base === '' ? (supplied as string) : `${base}\n${supplied}`;
    } else if (mode !== undefined) {
      next = supplied as string;
    } else {
      next = await ctx.editor.edit(current, { extension: '.md' });
      // Editors end the file with a newline: not a change the person made.
      if (!current.endsWith('\n')) next = next.replace(/\r?\n$/, '');
    }
    const size = charLength(next);
    if (size > max) {
      const message = `${mode === 'append' ? 'would make the memory' : 'is'} ${size} characters; the memory holds at most ${max}`;
      throw new InputError(`${flag} ${message}`, [{ path: flag, message }], mode === 'append' ? `it holds ${charLength(current)} now: shorten it first (kagent agent memory opens it in $EDITOR)` : undefined);
    }
    const { printJson, printText, note, success, wantsJson } = await import('../io/output.js');
    if (next === current) {
      await note(ctx, 'No change: the memory is as it was.');
      if (wantsJson(ctx)) await printJson(ctx, agent);
      return;
    }
    await (await ctx.api()).call('updateAgent', { body: { memory: next }, signal: ctx.signal });
    const { added, removed } = lineChanges(current, next);
    const plural = (n: number) => (n === 1 ? 'line' : 'lines');
    if (wantsJson(ctx)) await printJson(ctx, await getAgent(ctx));
    else if (!ctx.io.stdoutIsTTY) await printText(ctx, `${added}\t${removed}\t${size}\t${max}`);
    await success(ctx, (f) => `Memory updated: ${f.green(`+${added}`)} ${plural(added)}, ${f.red(`−${removed}`)} ${plural(removed)} (${f.number(charLength(current))} → ${f.number(size)} of ${f.number(max)} characters)`);
  },
});

export default defineGroup({
  name: 'agent',
  summary: "Your agent's name, memory and email address",
  description: 'Your agent has a name, an email address that reaches it, and a memory (Markdown) it keeps in mind in every conversation.',
  examples: ['kagent agent show', 'kagent agent rename Ada', 'kagent agent memory --append "- Call me Sam"'],
  commands: [show, rename, memory],
});
