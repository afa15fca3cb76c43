import { UsageError } from '../../src/errors.js';
import { configDirOf } from '../../src/config/resolve.js';
import { defineCommand } from '../../src/kit/define.js';
import { SETTINGS, requireSavedProfile, settingFor } from './shared.js';
import { writeProfile } from '../../src/config/store.js';
import { warn } from '../../src/io/output.js';
import { printDone } from '../../src/io/outcome.js';
import { limits } from '../../src/api/shapes.js';
import { checkSpace } from '../../src/kit/space.js';

export default defineCommand({
  name: 'set',
  summary: 'Save a setting in the profile',
  description:
    `Settings: ${SETTINGS.filter((s) => !s.secret)
      .map((s) => `${s.key} (${s.about})`)
      .join('; ')}. The API key is saved by \`kagent auth login\`. ` +
    'The profile (-p, default: the current one) must be saved already; --create makes a new one.',
  options: [{ flags: '--create', description: 'create the profile if it is not saved yet' }],
  arguments: [
    { name: 'key', description: 'the setting', choices: SETTINGS.map((s) => s.key) },
    { name: 'value', description: 'its new value' },
  ],
  examples: [
    'kagent config set lang zh',
    'kagent config set base-url https://example.com/api/v1 -p work',
    'kagent config set rate-limit 30',
    'kagent config set lang en -p staging --create',
  ],
  async run(ctx, opts, args) {
    const setting = settingFor(args.key);
    requireSavedProfile(ctx, {
      create: opts.create === true,
      retry: `kagent config set ${setting.key} ${/^[\w.:/@+-]+$/.test(args.value) ? args.value : 'VALUE'} -p ${ctx.config.profile} --create`,
    });
    if (!setting.parse) {
      throw new UsageError(
        `${setting.key} cannot be set here`,
        'use `kagent auth login --with-key` (a key typed on the command line ends up in your shell history)',
      );
    }
    const value = setting.parse(args.value, limits);
    // A default space must exist: checked with the profile's own service, or said to be unchecked.
    const check = setting.key === 'space' ? await checkSpace(ctx, String(value)) : undefined;
    await writeProfile(configDirOf(ctx.config), ctx.config.profile, { [setting.field]: value }, { signal: ctx.signal });
    await printDone(
      ctx,
      { key: setting.key, value, source: 'profile', profile: ctx.config.profile },
      {
        said: `Set ${setting.key} for profile "${ctx.config.profile}"`,
      },
    );
    if (check && 'unchecked' in check)
      await warn(ctx, `could not check that space "${String(value)}" exists (${check.unchecked}): saved unchecked`);
    const [, source] = setting.current(ctx.config);
    if (source === 'env' || source === 'flag')
      await warn(ctx, `a ${source === 'env' ? 'environment variable' : 'flag'} overrides ${setting.key} in this run`);
  },
});
