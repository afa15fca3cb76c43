import { defineCommand } from '../../src/kit/define.js';
import { writeProfile } from '../../src/config/store.js';
import { checkNamedProfile, configDirOf, storedProfile } from '../../src/config/resolve.js';
import { warn } from '../../src/io/output.js';
import { printDone } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'logout',
  summary: "Remove the profile's saved API key (the base URL and settings stay)",
  examples: ['kagent auth logout', 'kagent auth logout -p work'],
  async run(ctx) {
    // `-p sandbx`: never "nothing to do" for a profile that is not there (a typo leaves the real one logged in).
    checkNamedProfile(ctx.config);
    const hadKey = storedProfile(ctx.config).apiKey !== undefined;
    if (hadKey)
      await writeProfile(configDirOf(ctx.config), ctx.config.profile, { apiKey: undefined }, { signal: ctx.signal });
    await printDone(
      ctx,
      { profile: ctx.config.profile, loggedOut: hadKey },
      {
        said: hadKey ? `Logged out: removed the API key of profile "${ctx.config.profile}"` : undefined,
        note: hadKey ? undefined : `Profile "${ctx.config.profile}" has no saved API key; nothing to do`,
      },
    );
    if (ctx.config.apiKeySource === 'env')
      await warn(ctx, 'KAGENT_API_KEY is still set in your environment: unset it to log out completely');
  },
});
