import { ApiError, CliError, UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { fieldsGiven } from '../../src/kit/options.js';
import { suggest } from '../../src/kit/hints.js';
import type { Context } from '../../src/context.js';
import { notFoundHint } from '../../src/io/not-found.js';

import { printDone } from '../../src/io/outcome.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'settings',
  summary: "Change a watch's cadence and alerts (owner only)",
  description:
    'Only the owner of a watch (who created it) can change its settings; followers cannot. --alert replaces the whole list of alert phrases; --clear-alerts removes them all. ' +
    'With --json prints {"slug": ..., and the settings sent} (the service answers 204 with no body).',
  arguments: [{ name: 'slug', description: 'a watch you own', complete: 'watch' }],
  options: [
    { flags: '--cadence <cadence>', description: 'daily, weekly or off' },
    {
      flags: '--alert <phrase>',
      description: 'an alert phrase (repeatable; replaces the current list)',
      repeatable: true,
    },
    { flags: '--clear-alerts', description: 'remove every alert phrase' },
  ],
  examples: [
    'kagent watch settings ai-chips --cadence weekly',
    'kagent watch settings ai-chips --alert "export ban" --alert "Nvidia"',
    'kagent watch settings ai-chips --clear-alerts --cadence off',
  ],
  async run(ctx, opts, args) {
    if (opts.clearAlerts && opts.alert !== undefined) throw new UsageError('use --alert or --clear-alerts, not both');
    const body = fieldsGiven({ cadence: opts.cadence, alerts: opts.clearAlerts ? [] : opts.alert });
    if (Object.keys(body).length === 0)
      throw new UsageError(
        'nothing to change: pass --cadence, --alert or --clear-alerts',
        `see \`kagent watch settings --help\``,
      );
    checkInput(S.WatchSettingsRequest, body, { cadence: '--cadence', alerts: '--alert' });
    try {
      await (await ctx.api()).call('updateWatchSettings', { params: { slug: args.slug }, body, signal: ctx.signal });
    } catch (error) {
      throw await explainSettingsError(ctx, error, args.slug);
    }
    const changes = [
      body.cadence !== undefined ? `cadence ${String(body.cadence)}` : undefined,
      body.alerts !== undefined ? alertsChange(body.alerts as string[]) : undefined,
    ].filter(Boolean);
    await printDone(ctx, { slug: args.slug, ...body } as { slug: string; cadence?: string; alerts?: string[] }, {
      said: `Updated ${args.slug}: ${changes.join('; ')}`,
      piped: (r) => [r.slug, r.cadence ?? '', (r.alerts ?? []).join(',')].join('\t'),
    });
  },
});

/**
 * The contract answers 404 to anyone but the owner ("owner only", 404): when the watch can
 * still be read, the 404 means it is someone else's. A 403 (NOT_OWNER) says the same.
 */
async function explainSettingsError(ctx: Context, error: unknown, slug: string): Promise<unknown> {
  if (!(error instanceof ApiError) || (error.status !== 403 && error.status !== 404)) return error;
  if (error.status === 404) {
    let visible = false;
    try {
      await (await ctx.api()).call('getWatch', { params: { slug }, signal: ctx.signal });
      visible = true;
    } catch {
      // Not readable either: no such watch.
    }
    if (!visible) return notFoundHint(ctx, error, 'watch', slug);
  }
  return new CliError(`only the owner of a watch can change its settings, and ${slug} was created by someone else`, {
    exitCode: error.exitCode,
    code: error.code,
    hint: `you can still follow or unfollow it; for your own cadence and alerts, start a watch of your own: \`${suggest(ctx, 'watch create "what to follow"')}\``,
    cause: error,
  });
}

/** The alerts set, in the confirmation line: an empty list removes them all. */
function alertsChange(alerts: string[]): string {
  return alerts.length > 0 ? `alerts: ${alerts.join(', ')}` : 'no alerts';
}
