import { configDirOf, profileNotFound } from '../../src/config/resolve.js';
import { defineCommand } from '../../src/kit/define.js';
import { readConfigFile, updateConfigFile } from '../../src/config/store.js';
import { printDone } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'use',
  summary: 'Make a profile the current one',
  arguments: [{ name: 'profile', description: 'a saved profile', complete: 'profile' }],
  examples: ['kagent config use sandbox', 'kagent config use default'],
  async run(ctx, _opts, args) {
    const file = readConfigFile(ctx.config.configPath);
    if (!file.profiles[args.profile]) {
      throw profileNotFound(args.profile, Object.keys(file.profiles), {
        create: `kagent auth login -p ${args.profile}`,
      });
    }
    await updateConfigFile(
      configDirOf(ctx.config),
      (config) => {
        config.currentProfile = args.profile;
      },
      { signal: ctx.signal },
    );
    await printDone(ctx, { currentProfile: args.profile }, { said: `Now using profile "${args.profile}"` });
  },
});
