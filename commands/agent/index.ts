// `kagent agent`: your agent's name, memory (Markdown) and email address.
//   show     getAgent (memory rendered as Markdown on a terminal)
//   rename   updateAgent {name}
//   memory   updateAgent {memory}: --set TEXT, --append TEXT, --file PATH|-,
//            or (on a terminal, with none of those) $EDITOR on the current
//            memory. The size is checked against the agent's memoryMax before
//            anything is sent; a short summary of the change is printed.
// updateAgent answers 204: --json prints the Agent as it now stands.
import { defineGroup } from '../../src/kit/define.js';
import show from './show.js';
import rename from './rename.js';
import memory from './memory.js';

export default defineGroup({
  description:
    'Your agent has a name, an email address that reaches it, and a memory (Markdown) it keeps in mind in every conversation.',
  examples: ['kagent agent show', 'kagent agent rename Ada', 'kagent agent memory --append "- Call me Sam"'],
  commands: [show, rename, memory],
});
