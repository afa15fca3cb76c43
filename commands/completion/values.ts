// `kagent completion __complete KIND [PREFIX]` (hidden): what the completion
// scripts call for an argument's value — one `value<TAB>description` line per
// candidate starting with PREFIX. Quick (a short-lived cache, a hard deadline)
// and silent: no key, no network or an odd answer prints nothing, exit 0.
import { defineCommand } from '../../src/kit/define.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { emit } from '../../src/io/streams.js';
import { completeValues, isCompleteKind } from '../../src/kit/complete.js';

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
    if (!isCompleteKind(args.kind)) return;
    const values = await completeValues(args.kind, args.prefix ?? '', {
      baseUrl: ctx.config.baseUrl,
      apiKey: ctx.config.apiKey,
      configPath: ctx.config.configPath,
      env: ctx.io.env,
      version: ctx.version,
    });
    // Service text lands in the shell's menu: sanitised as all output is (bidi controls shown as <U+202E>, no
    // escape sequence or control character). A value that sanitising would change is not offered at all: what
    // the menu showed would not be what the shell inserts (the id of the same thing is offered instead).
    const lines = values
      .filter((c) => c.value !== '' && sanitizeLine(c.value) === c.value && c.value.trim() === c.value)
      .map((c) => `${c.value}\t${sanitizeLine(c.description).trim()}`);
    if (lines.length) await emit(ctx.io.stdout, `${lines.join('\n')}\n`);
  },
});
