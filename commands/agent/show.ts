import type { Context } from '../../src/context.js';
import type { Agent } from '../../src/api/shapes.js';
import type { Formatter } from '../../src/io/format.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { getAgent } from './shared.js';
import { charLength } from '../../src/api/validate.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { pipedFieldsHelp, renderView, type ItemView } from '../../src/io/output.js';
import { printView } from '../../src/io/outcome.js';
import { renderMarkdown } from '../../src/io/markdown.js';

const memoryOf = (agent: Agent): string => (typeof agent.memory === 'string' ? agent.memory : '');

/** The head, declared once: piped `key<TAB>value` lines; on a terminal, under the name (its own bold line). */
const view: ItemView<Agent> = {
  fields: [
    { key: 'name', json: 'name' },
    {
      key: 'address',
      label: 'Address',
      value: (a) => a.address,
      display: (a, f) => `${sanitizeLine(a.address ?? '')} ${f.dim('(email it to reach your agent)')}`,
      json: 'address',
    },
    {
      key: 'memory-chars',
      label: 'Memory',
      value: (a) => charLength(memoryOf(a)),
      display: (a, f) =>
        `${f.number(charLength(memoryOf(a)))}${typeof a.memoryMax === 'number' ? ` of ${f.number(a.memoryMax)}` : ''} characters`,
    },
    { key: 'memory-max', json: 'memoryMax' },
  ],
  then: 'Then a `--` line and the memory as Markdown.',
};

/** Piped: the head, then the memory as it is after a `--` line. */
function pipedAgent(agent: Agent, f: Formatter): string {
  return `${renderView(agent, view, f)}\n--\n${memoryOf(agent).replace(/\n+$/, '')}`;
}

/** On a terminal: the name, the head, then the memory as Markdown, or how to start one. */
async function renderAgent(ctx: Context, agent: Agent, f: Formatter): Promise<string> {
  const memory = memoryOf(agent);
  const lines = [f.bold(sanitizeLine(agent.name ?? '')), renderView(agent, view, f), ''];
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
  description: `--json prints the Agent. ${pipedFieldsHelp(view)}`,
  examples: ['kagent agent show', 'kagent agent show --jq .address', 'kagent agent show | sed "1,/^--$/d" > memory.md'],
  async run(ctx) {
    const agent = await getAgent(ctx);
    await printView(ctx, agent, { table: view, terminal: (a, f) => renderAgent(ctx, a, f), piped: pipedAgent });
  },
});
