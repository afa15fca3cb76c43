import { CliError } from '../../src/errors.js';
import { configDirOf } from '../../src/config/resolve.js';
import { defineCommand } from '../../src/kit/define.js';
import { readConfigFile, updateConfigFile } from '../../src/config/store.js';
import * as output from '../../src/io/output.js';

export default defineCommand({
  name: 'use',
  summary: 'Make a profile the current one',
  arguments: [{ name: 'profile', description: 'a saved profile', complete: 'profile' }],
  examples: ['kagent config use sandbox', 'kagent config use default'],
  async run(ctx, _opts, args) {
    const file = readConfigFile(ctx.config.configPath);
    if (!file.profiles[args.profile]) {
      throw new CliError(`no profile "${args.profile}"`, {
        exitCode: 4,
        code: 'PROFILE_NOT_FOUND',
        hint: 'see them with `kagent config profiles`, or create one with `kagent auth login -p NAME`',
      });
    }
    await updateConfigFile(configDirOf(ctx.config), (config) => {
      config.currentProfile = args.profile;
    });
    if (output.wantsJson(ctx)) await output.printJson(ctx, { currentProfile: args.profile });
    else await output.success(ctx, `Now using profile "${args.profile}"`);
  },
});
