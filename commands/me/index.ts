// kagent me: the account — plan, trial, credits by pool, plan limits and usage.
import type { Me } from '../../src/api/shapes.js';
import type { Formatter, ItemView } from '../../src/io/output.js';
import { defineGroup } from '../../src/kit/define.js';
import { withSpinner } from '../../src/io/spinner.js';
import { pipedFieldsHelp, printItem } from '../../src/io/output.js';

/** "3 of 20", "? of 20": usage against its limit, either side possibly unknown. */
function ofLimit(
  used: number | undefined,
  limit: number | undefined,
  render: (n: number) => string,
): string | undefined {
  if (used === undefined && limit === undefined) return undefined;
  return `${used === undefined ? '?' : render(used)} of ${limit === undefined ? '?' : render(limit)}`;
}

/** One declaration (tolerant of missing fields: the contract leaves Me's shape open). Piped: raw numbers and ISO times. */
export const meView: ItemView<Me> = {
  title: (me, f) => `${f.bold(me.name || me.email || me.id)}${me.name && me.email ? ` <${me.email}>` : ''}`,
  fields: [
    { key: 'id', json: 'id' },
    { key: 'email', json: 'email' },
    { key: 'name', json: 'name' },
    { key: 'plan', value: (me) => me.plan?.id },
    {
      key: 'plan-name',
      label: 'Plan',
      value: (me) => me.plan?.name,
      display: (me, f) => {
        if (!me.plan) return undefined;
        const ends = me.trial?.endsAt ? ` ends ${f.time(me.trial.endsAt)}` : '';
        return `${me.plan.name}${me.trial?.active ? ` · trial${ends}` : ''}`;
      },
      json: 'plan.name',
    },
    { key: 'trial-active', kind: 'bool', json: 'trial.active' },
    { key: 'trial-ends', kind: 'time', json: 'trial.endsAt' },
    {
      key: 'email-verified',
      label: 'Email',
      value: (me) => me.emailVerified,
      kind: 'bool',
      display: (me, f) => {
        if (me.emailVerified === undefined) return undefined;
        return me.emailVerified ? 'verified' : f.yellow('not verified (needed to create watches)');
      },
      json: 'emailVerified',
    },
    { key: 'lang', label: 'Language', json: 'lang' },
    {
      key: 'credits',
      label: 'Credits',
      value: (me) => me.credits?.total,
      display: (me, f) => (me.credits?.total === undefined ? undefined : `${f.number(me.credits.total)} left`),
    },
    {
      key: 'credits.<pool>',
      about: 'one per credit pool',
      each: (me) =>
        (me.credits?.pools ?? []).map((pool) => ({
          key: `credits.${pool.pool}`,
          label: `  ${pool.pool}`,
          value: pool.remaining,
          display: (f: Formatter) => {
            const total = pool.total === null || pool.total === undefined ? '' : ` of ${f.number(pool.total)}`;
            const resets = pool.resetsAt ? f.dim(` · resets ${f.time(pool.resetsAt)}`) : '';
            return `${f.number(pool.remaining)}${total}${resets}`;
          },
        })),
    },
    {
      key: 'follows',
      label: 'Follows',
      display: (me, f) => ofLimit(me.usage?.follows, me.limits?.follows, f.number),
      json: 'usage.follows',
    },
    { key: 'follows-limit', json: 'limits.follows' },
    {
      key: 'watches-this-month',
      label: 'Watches',
      value: (me) => me.usage?.watchesThisMonth,
      display: (me, f) => {
        const watches = ofLimit(me.usage?.watchesThisMonth, me.limits?.watchesPerMonth, f.number);
        return watches && `${watches} this month`;
      },
      json: 'usage.watchesThisMonth',
    },
    { key: 'watches-per-month', json: 'limits.watchesPerMonth' },
    {
      key: 'storage-bytes',
      label: 'Storage',
      display: (me, f) => ofLimit(me.usage?.storageBytes, me.limits?.storageBytes, f.bytes),
      json: 'usage.storageBytes',
    },
    { key: 'storage-limit-bytes', json: 'limits.storageBytes' },
    {
      key: 'file-limit-bytes',
      label: 'File size',
      value: (me) => me.limits?.fileBytes,
      display: (me, f) =>
        me.limits?.fileBytes === undefined ? undefined : `up to ${f.bytes(me.limits.fileBytes)} each`,
      json: 'limits.fileBytes',
    },
  ],
};

export default defineGroup({
  description: pipedFieldsHelp(meView),
  examples: ['kagent me', 'kagent me --json', "kagent me --jq '.credits.total'"],
  async run(ctx) {
    const api = await ctx.api();
    const me = await withSpinner(ctx, 'Loading your account…', () => api.call('getMe', { signal: ctx.signal }));
    await printItem(ctx, me, meView);
  },
});
