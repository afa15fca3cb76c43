import { configDirOf } from '../../src/config/resolve.js';
import { defineCommand } from '../../src/kit/define.js';
import { SETTINGS, requireSavedProfile, settingFor } from './shared.js';
import { writeProfile } from '../../src/config/store.js';
import { printDone } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'unset',
  summary: 'Remove a setting from the profile',
  arguments: [{ name: 'key', description: 'the setting', choices: SETTINGS.map((s) => s.key) }],
  examples: ['kagent config unset space', 'kagent config unset lang -p work'],
  async run(ctx, _opts, args) {
    const setting = settingFor(args.key);
    requireSavedProfile(ctx, { create: false, retry: `kagent auth login -p ${ctx.config.profile}` });
    await writeProfile(
      configDirOf(ctx.config),
      ctx.config.profile,
      { [setting.field]: undefined },
      { signal: ctx.signal },
    );
    await printDone(
      ctx,
      { key: setting.key, value: null, profile: ctx.config.profile },
      {
        said: `Removed ${setting.key} from profile "${ctx.config.profile}"`,
      },
    );
  },
});
