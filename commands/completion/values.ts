// `kagent completion __complete KIND [PREFIX]` (hidden): what the completion
// scripts call for an argument's value — one `value<TAB>description` line per
// candidate starting with PREFIX. Quick (a short-lived cache, a hard deadline)
// and silent: no key, no network or an odd answer prints nothing, exit 0.
import { defineCommand } from '../../src/kit/define.js';

export default defineCommand({
  name: '__complete',
  summary: 'Values for the completion scripts (watch slugs, ids, profiles)',
  hidden: true,
  arguments: [
    { name: 'kind', description: 'watch, space, doc, lib, media, task, conversation, action, inbox or profile' },
    { name: 'prefix', description: 'what is typed so far', optional: true },
  ],
  examples: ['kagent completion __complete watch ai-'],
  async run(ctx, _opts, args) {
    const { completeValues, isCompleteKind } = await import('../../src/kit/complete.js');
    if (!isCompleteKind(args.kind)) return;
    const values = await completeValues(args.kind, args.prefix ?? '', { baseUrl: ctx.config.baseUrl, apiKey: ctx.config.apiKey, configPath: ctx.config.configPath, env: ctx.io.env, version: ctx.version });
    const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
    const lines = values.map((c) => `${clean(c.value)}\t${clean(c.description)}`).filter((line) => !line.startsWith('\t'));
    if (lines.length) ctx.io.stdout.write(`${lines.join('\n')}\n`);
  },
});
