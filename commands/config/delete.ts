import { configDirOf, profileNotFound } from '../../src/config/resolve.js';
import { defineCommand } from '../../src/kit/define.js';
import { readConfigFile, updateConfigFile } from '../../src/config/store.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { printDone } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a saved profile, its key and settings',
  description:
    'Asks for confirmation on a terminal; elsewhere pass --yes. Deleting the current profile leaves no current one ' +
    '(pick another with `kagent config use NAME`). Nothing is sent to the service: the key stays valid there.',
  arguments: [{ name: 'profile', description: 'a saved profile', complete: 'profile' }],
  examples: ['kagent config delete staging', 'kagent config delete sandbox --yes'],
  async run(ctx, _opts, args) {
    const file = readConfigFile(ctx.config.configPath);
    const saved = file.profiles[args.profile];
    if (!saved)
      throw profileNotFound(args.profile, Object.keys(file.profiles), {
        create: `kagent auth login -p ${args.profile}`,
      });
    const current = file.currentProfile === args.profile;
    await confirmOrYes(ctx, {
      message: `Delete profile "${args.profile}"${saved.baseUrl ? ` (${saved.baseUrl})` : ''}${saved.apiKey ? ' and its API key' : ''}${current ? '; it is the current profile' : ''}?`,
      action: `delete profile "${args.profile}"`,
    });
    await updateConfigFile(
      configDirOf(ctx.config),
      (config) => {
        delete config.profiles[args.profile];
        if (config.currentProfile === args.profile) delete config.currentProfile;
      },
      { signal: ctx.signal },
    );
    await printDone(
      ctx,
      { deleted: args.profile, wasCurrent: current },
      {
        said: `Deleted profile "${args.profile}"${current ? '; no profile is current now (`kagent config use NAME`)' : ''}`,
      },
    );
  },
});
