import type { Context } from '../../src/context.js';
import type { Agent } from '../../src/api/shapes.js';
import type { Formatter } from '../../src/io/format.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { getAgent } from './shared.js';
import { charLength } from '../../src/api/validate.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { printItem } from '../../src/io/output.js';
import { renderMarkdown } from '../../src/io/markdown.js';

async function renderAgent(ctx: Context, agent: Agent, f: Formatter): Promise<string> {
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
      [
        'Memory',
        `${f.number(charLength(memory))}${typeof agent.memoryMax === 'number' ? ` of ${f.number(agent.memoryMax)}` : ''} characters`,
      ],
    ]),
    '',
  ];
  if (memory.trim() === '') {
    lines.push(
      f.dim(
        `No memory yet: add to it with \`${suggest(ctx, 'agent memory --append TEXT')}\`, or tell the agent to remember something.`,
      ),
    );
  } else {
    lines.push((await renderMarkdown(ctx, memory)).replace(/\n+$/, ''));
  }
  return lines.join('\n');
}

export default defineCommand({
  name: 'show',
  aliases: ['view'],
  summary: "Show your agent's name, email address and memory",
  description:
    'Piped: label/value lines (name, address, memory-chars, memory-max), `--`, then the memory as Markdown. --json prints the Agent.',
  examples: ['kagent agent show', 'kagent agent show --jq .address', 'kagent agent show | sed "1,/^--$/d" > memory.md'],
  async run(ctx) {
    const agent = await getAgent(ctx);
    await printItem(ctx, agent, (a, f) => renderAgent(ctx, a, f));
  },
});
