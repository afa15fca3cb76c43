import { CliError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { checkNamedProfile } from '../../src/config/resolve.js';
import { SETTINGS, rowFor, settingFor } from './shared.js';
import * as output from '../../src/io/output.js';

export default defineCommand({
  name: 'get',
  summary: 'Print the value of a setting in effect (the API key masked)',
  description: `Settings: ${SETTINGS.map((s) => s.key).join(', ')}. Exit status 1 when the setting has no value.`,
  arguments: [{ name: 'key', description: 'the setting', choices: SETTINGS.map((s) => s.key) }],
  examples: ['kagent config get base-url', 'kagent config get lang -p work', 'kagent config get rate-limit --json'],
  async run(ctx, _opts, args) {
    checkNamedProfile(ctx.config);
    const row = rowFor(ctx, settingFor(args.key));
    if (row.value === null)
      throw new CliError(`${row.key} is not set for profile "${ctx.config.profile}"`, {
        code: 'NOT_SET',
        hint: `set it with \`kagent config set ${row.key} <value>\``,
      });
    if (output.wantsJson(ctx)) await output.printJson(ctx, row);
    else await output.printText(ctx, String(row.value));
  },
});
