import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { defineCommand, InputError } from '../../src/kit/define.js';
import { getAgent } from './shared.js';
import { whyNoPrompt } from '../../src/io/prompt.js';
import { charLength } from '../../src/api/validate.js';
import { note } from '../../src/io/output.js';
import { printDone } from '../../src/io/outcome.js';
import { readBounded, inputBounds } from '../../src/io/input.js';
import * as S from '../../src/api/shapes.js';

/** Lines added and removed (as multisets: a moved line counts as neither). */
function lineChanges(before: string, after: string): { added: number; removed: number } {
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
  return readBounded(ctx, path, '--file', (await inputBounds()).memory);
}

export default defineCommand({
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
    if (given.length > 1)
      throw new UsageError(`use one of --set, --append and --file (got --${given.join(' and --')})`);
    const mode = given[0];
    if (mode === undefined && !ctx.io.canPrompt) {
      const why = whyNoPrompt(ctx);
      throw new UsageError(
        `nothing to change: pass --set TEXT, --append TEXT or --file PATH (no editor without a terminal: ${why})`,
      );
    }
    // What was given is read (and checked for the memory's fixed bound) before any request.
    let supplied: string | undefined;
    if (mode === 'set') supplied = opts.set;
    if (mode === 'append') supplied = opts.append;
    if (mode === 'file') supplied = await readSource(ctx, opts.file as string);
    // A file or pipe that came out empty (a step before it failed, say) does not wipe the memory.
    if (mode === 'file' && supplied?.trim() === '')
      throw new UsageError(
        `--file gave no text; the memory was left as it was`,
        "to empty the memory on purpose: `kagent agent memory --set ''`",
      );
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
      throw new InputError(
        `${flag} ${message}`,
        [{ path: flag, message }],
        mode === 'append'
          ? `it holds ${charLength(current)} now: shorten it first (\`kagent agent memory\` opens it in $EDITOR)`
          : undefined,
      );
    }
    if (next === current) {
      await note(ctx, 'No change: the memory is as it was.');
      return printDone(ctx, agent, {});
    }
    await (await ctx.api()).call('updateAgent', { body: { memory: next }, signal: ctx.signal });
    const { added, removed } = lineChanges(current, next);
    const plural = (n: number) => (n === 1 ? 'line' : 'lines');
    await printDone(
      ctx,
      { added, removed, size, max },
      {
        json: () => getAgent(ctx),
        piped: (r) => `${r.added}\t${r.removed}\t${r.size}\t${r.max}`,
        said: (f) =>
          `Memory updated: ${f.green(`+${added}`)} ${plural(added)}, ${f.red(`−${removed}`)} ${plural(removed)} (${f.number(charLength(current))} → ${f.number(size)} of ${f.number(max)} characters)`,
      },
    );
  },
});
