import { CliError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { checkNamedProfile } from '../../src/config/resolve.js';
import { SETTINGS, rowFor, settingFor } from './shared.js';
import { printValue } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'get',
  summary: 'Print the value of a setting in effect (the API key masked)',
  description: `Settings: ${SETTINGS.map((s) => s.key).join(', ')}. Exit status 1 when the setting has no value.`,
  arguments: [{ name: 'key', description: 'the setting', choices: SETTINGS.map((s) => s.key) }],
  examples: ['kagent config get base-url', 'kagent config get lang -p work', 'kagent config get rate-limit --json'],
  async run(ctx, _opts, args) {
    checkNamedProfile(ctx.config);
    const setting = settingFor(args.key);
    const row = rowFor(ctx, setting);
    const profile = ctx.config.profile === 'default' ? '' : ` -p ${ctx.config.profile}`;
    if (row.value === null)
      throw new CliError(`${row.key} is not set for profile "${ctx.config.profile}"`, {
        code: 'NOT_SET',
        // The API key is not set with `config set` (which refuses it): it comes from logging in.
        hint: setting.parse
          ? `set it with \`kagent config set ${row.key} <value>${profile}\``
          : `log in with \`kagent auth login${profile}\`, or set KAGENT_API_KEY`,
      });
    await printValue(ctx, row, (r) => String(r.value));
  },
});
