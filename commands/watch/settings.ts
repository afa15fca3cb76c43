import { ApiError, CliError, UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { withNotFound } from '../../src/views/not-found.js';
import { shapes } from './shared.js';

export default defineCommand({
  name: 'settings',
  summary: "Change a watch's cadence and alerts (owner only)",
  description:
    'Only the owner of a watch (who created it) can change its settings; followers cannot. --alert replaces the whole list of alert phrases; --clear-alerts removes them all. ' +
    'With --json prints {"slug": ..., and the settings sent} (the service answers 204 with no body).',
  arguments: [{ name: 'slug', description: 'a watch you own', complete: 'watch' }],
  options: [
    { flags: '--cadence <cadence>', description: 'daily, weekly or off' },
    { flags: '--alert <phrase>', description: 'an alert phrase (repeatable; replaces the current list)', repeatable: true },
    { flags: '--clear-alerts', description: 'remove every alert phrase' },
  ],
  examples: ['kagent watch settings ai-chips --cadence weekly', 'kagent watch settings ai-chips --alert "export ban" --alert "Nvidia"', 'kagent watch settings ai-chips --clear-alerts --cadence off'],
  async run(ctx, opts, args) {
    if (opts.clearAlerts && opts.alert !== undefined) throw new UsageError('use --alert or --clear-alerts, not both');
    const body: Record<string, unknown> = {};
    if (opts.cadence !== undefined) body.cadence = opts.cadence;
    if (opts.alert !== undefined) body.alerts = opts.alert;
    if (opts.clearAlerts) body.alerts = [];
    if (Object.keys(body).length === 0) throw new UsageError('nothing to change: pass --cadence, --alert or --clear-alerts', `see \`kagent watch settings --help\``);
    const S = await shapes();
    checkInput(S.WatchSettingsRequest, body, { cadence: '--cadence', alerts: '--alert' });
    const { printItem, success } = await import('../../src/io/output.js');
    try {
      await withNotFound(ctx, 'watch', args.slug, async () => (await ctx.api()).call('updateWatchSettings', { params: { slug: args.slug }, body, signal: ctx.signal }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        throw new CliError(`only the owner of a watch can change its settings, and ${args.slug} was created by someone else`, {
          exitCode: error.exitCode,
          code: error.code,
          hint: `you can still follow or unfollow it; for your own cadence and alerts, start a watch of your own: \`${suggest(ctx, 'watch create "what to follow"')}\``,
          cause: error,
        });
      }
      throw error;
    }
    const changes = [
      body.cadence !== undefined ? `cadence ${String(body.cadence)}` : undefined,
      body.alerts !== undefined ? ((body.alerts as string[]).length ? `alerts: ${(body.alerts as string[]).join(', ')}` : 'no alerts') : undefined,
    ].filter(Boolean);
    await success(ctx, `Updated ${args.slug}: ${changes.join('; ')}`);
    const result = { slug: args.slug, ...body };
    await printItem(ctx, result, (r, f) =>
      f.tty ? '' : [r.slug, (r as { cadence?: string }).cadence ?? '', ((r as { alerts?: string[] }).alerts ?? []).join(',')].join('\t'),
    );
  },
});
