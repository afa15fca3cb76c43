// kagent me: the account — plan, trial, credits by pool, plan limits and usage.
import type { Me } from '../../src/api/shapes.js';
import type { Formatter } from '../../src/io/output.js';
import { defineGroup } from '../../src/kit/define.js';
import { withSpinner } from '../../src/io/spinner.js';
import { printItem } from '../../src/io/output.js';

/** Terminal: a short readable page. Piped: `key<TAB>value` lines with raw numbers and ISO times. */
function renderMe(me: Me, f: Formatter): string {
  // Tolerant of missing fields: the contract leaves Me's shape open.
  const pools = me.credits?.pools ?? [];
  const limits = me.limits;
  const usage = me.usage;
  if (!f.tty) {
    return f.fields([
      ['id', me.id],
      ['email', me.email],
      ['name', me.name],
      ['email-verified', me.emailVerified === undefined ? undefined : String(me.emailVerified)],
      ['lang', me.lang],
      ['plan', me.plan?.id],
      ['plan-name', me.plan?.name],
      ['trial-active', me.trial ? String(me.trial.active) : undefined],
      ['trial-ends', me.trial?.endsAt ?? undefined],
      ['credits', me.credits?.total === undefined ? undefined : String(me.credits.total)],
      ...pools.map((pool): [string, string] => [`credits.${pool.pool}`, String(pool.remaining)]),
      ['follows', usage?.follows === undefined ? undefined : String(usage.follows)],
      ['follows-limit', limits?.follows === undefined ? undefined : String(limits.follows)],
      ['watches-this-month', usage?.watchesThisMonth === undefined ? undefined : String(usage.watchesThisMonth)],
      ['watches-per-month', limits?.watchesPerMonth === undefined ? undefined : String(limits.watchesPerMonth)],
      ['storage-bytes', usage?.storageBytes === undefined ? undefined : String(usage.storageBytes)],
      ['storage-limit-bytes', limits?.storageBytes === undefined ? undefined : String(limits.storageBytes)],
      ['file-limit-bytes', limits?.fileBytes === undefined ? undefined : String(limits.fileBytes)],
    ]);
  }

  const who = `${f.bold(me.name || me.email || me.id)}${me.name && me.email ? ` <${me.email}>` : ''}`;
  const trial = me.trial?.active ? ` · trial${me.trial.endsAt ? ` ends ${f.time(me.trial.endsAt)}` : ''}` : '';
  const ofLimit = (used: number | undefined, limit: number | undefined, render: (n: number) => string = f.number) =>
    used === undefined && limit === undefined
      ? undefined
      : `${used === undefined ? '?' : render(used)} of ${limit === undefined ? '?' : render(limit)}`;
  const poolRows = pools.map((pool): [string, string] => {
    const total = pool.total === null || pool.total === undefined ? '' : ` of ${f.number(pool.total)}`;
    const resets = pool.resetsAt ? f.dim(` · resets ${f.time(pool.resetsAt)}`) : '';
    return [`  ${pool.pool}`, `${f.number(pool.remaining)}${total}${resets}`];
  });
  const watches = ofLimit(usage?.watchesThisMonth, limits?.watchesPerMonth);
  const lines = [
    who,
    '',
    f.fields([
      ['Plan', me.plan ? `${me.plan.name}${trial}` : undefined],
      [
        'Email',
        me.emailVerified === undefined
          ? undefined
          : me.emailVerified
            ? 'verified'
            : f.yellow('not verified (needed to create watches)'),
      ],
      ['Language', me.lang],
      ['Credits', me.credits?.total === undefined ? undefined : `${f.number(me.credits.total)} left`],
      ...poolRows,
      ['Follows', ofLimit(usage?.follows, limits?.follows)],
      ['Watches', watches && `${watches} this month`],
      ['Storage', ofLimit(usage?.storageBytes, limits?.storageBytes, f.bytes)],
      ['File size', limits?.fileBytes === undefined ? undefined : `up to ${f.bytes(limits.fileBytes)} each`],
    ]),
  ];
  return lines.join('\n');
}

export default defineGroup({
  name: 'me',
  summary: 'Your account: plan, trial, credits and limits',
  description: 'Piped, each line is `key<TAB>value` (credits.<pool> per credit pool; bytes and ISO times raw).',
  examples: ['kagent me', 'kagent me --json', "kagent me --jq '.credits.total'"],
  async run(ctx) {
    const api = await ctx.api();
    const me = await withSpinner(ctx, 'Loading your account…', () => api.call('getMe', { signal: ctx.signal }));
    await printItem(ctx, me, renderMe);
  },
});
