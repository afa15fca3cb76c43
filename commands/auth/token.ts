import { CliError, ExitCode } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { checkNamedProfile } from '../../src/config/resolve.js';
import { printValue } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'token',
  summary: 'Print the API key in use (the only command that shows it)',
  revealsKey: true,
  examples: [
    'kagent auth token',
    'curl -H "Authorization: Bearer $(kagent auth token)" "$(kagent config get base-url)/me"',
  ],
  async run(ctx) {
    const key = ctx.config.apiKey;
    if (!key) {
      // `-p sandbx`: the profile does not exist, which is why it has no key.
      checkNamedProfile(ctx.config);
      throw new CliError('not logged in: no API key', {
        exitCode: ExitCode.AUTH,
        code: 'NOT_AUTHENTICATED',
        hint: 'run `kagent auth login`, or set KAGENT_API_KEY',
      });
    }
    await printValue(ctx, { token: key }, (r) => r.token);
  },
});
