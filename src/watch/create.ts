// `kagent watch create`: the request read from the flags (checked against the
// API's bounds, visibility asked on a terminal, the space looked up), the watch
// created (its 403s explained), then either the task that sets it up is followed
// to the first brief, or (--no-wait) the slug and task are said.
import type { ApiClient } from '../api/client.js';
import type { WatchCreated } from '../api/shapes.js';
import * as S from '../api/shapes.js';
import type { Context } from '../context.js';
import { ApiError, CliError, ExitCode, UsageError, onInterruptSay } from '../errors.js';
import { followTask, taskOutcomeError } from '../follow/task.js';
import { note, printItem, success, wantsJson, type ItemView } from '../io/output.js';
import { printView } from '../io/outcome.js';
import { askText } from '../io/prompt.js';
import { checkInput } from '../kit/define.js';
import { suggest } from '../kit/hints.js';
import { checkIdempotencyKey, noteReplay } from '../kit/idempotency-key.js';
import { spaceIdFor } from '../kit/space.js';
import { plainWatchPage, renderWatchPage, watchHead } from '../views/brief.js';
import { meOrNothing } from './me.js';

/** The options of `watch create`. */
export interface CreateOptions {
  type?: string;
  url?: string[];
  alert?: string[];
  cadence?: string;
  visibility?: string;
  space?: string;
  idempotencyKey?: string;
  /** false with --no-wait. */
  wait?: boolean;
}

export async function startWatch(ctx: Context, opts: CreateOptions, intentGiven: string | undefined): Promise<void> {
  // Ctrl-C at the questions: its one quiet line says that nothing was created.
  const body = await onInterruptSay('nothing was created', async () => {
    const intent =
      intentGiven ??
      (await askText(ctx, {
        message: 'What should the watch follow? (one sentence)',
        flag: 'INTENT (the first argument)',
        what: 'what to follow',
      }));
    return requestBody(ctx, opts, intent);
  });
  const api = await ctx.api();
  const created = await createWatch(ctx, api, body, opts.idempotencyKey);
  // Said in the confirmation line: a public watch can be found by anyone (`watch search`).
  const seenBy = created.watch?.visibility ?? String(body.visibility);
  const follow = suggest(ctx, 'task show', created.taskId, '--follow');
  const show = suggest(ctx, 'watch show', created.slug);
  if (!opts.wait) return reportStarted(ctx, created, seenBy, follow, show);
  await followSetUp(ctx, api, { created, seenBy }, follow, show);
}

/**
 * --visibility not given: a terminal asks (public first, the service's default).
 * Who can see a watch is a choice, never a default taken silently: without a
 * terminal to ask (or with --yes) it must be given, as `gh repo create` does.
 */
async function askVisibility(ctx: Context, intent: string): Promise<string> {
  if (!ctx.io.canPrompt || ctx.flags.yes)
    throw new UsageError(
      'who can see the watch was not chosen: --visibility is needed when kagent cannot ask',
      `e.g. ${suggest(ctx, 'watch create', intent, '--visibility', 'private')} (or public, unlisted)`,
    );
  return ctx.prompter.select('Who can see this watch?', [
    { value: 'public', name: 'public', description: 'anyone can find it (watch search) and follow it' },
    { value: 'unlisted', name: 'unlisted', description: 'only people with its link' },
    { value: 'private', name: 'private', description: 'only you' },
  ]);
}

/** The body of createWatch, checked against the API's bounds before anything is sent (the space resolved to its id). */
async function requestBody(ctx: Context, opts: CreateOptions, intent: string): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = { intent };
  if (opts.type !== undefined) body.type = opts.type;
  if (opts.url !== undefined) body.urls = opts.url;
  if (opts.alert !== undefined) body.alerts = opts.alert;
  if (opts.cadence !== undefined) body.cadence = opts.cadence;
  if (opts.visibility !== undefined) body.visibility = opts.visibility;
  // --space, else the profile's default space (`kagent config set space ...`), else the account's default.
  const spaceRef = opts.space ?? ctx.config.space;
  if (spaceRef !== undefined) body.spaceId = spaceRef;
  if (ctx.config.lang !== undefined) body.lang = ctx.config.lang;
  checkInput(S.CreateWatchRequest, body, {
    intent: 'INTENT',
    type: '--type',
    urls: '--url',
    alerts: '--alert',
    cadence: '--cadence',
    visibility: '--visibility',
    spaceId: opts.space !== undefined ? '--space' : "the profile's space",
    lang: '--lang',
  });
  await checkIdempotencyKey(opts.idempotencyKey);
  // A watch reads the web: a file:, javascript: or ftp: link would be sent, accepted and never read.
  for (const url of opts.url ?? []) {
    if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol))
      throw new UsageError(
        `--url must be an http or https link (got ${JSON.stringify(url)})`,
        'e.g. --url https://example.com/',
      );
  }
  if ((opts.type === 'sources' || opts.type === 'pages') && (opts.url ?? []).length === 0) {
    throw new UsageError(
      `--type ${opts.type} needs at least one --url`,
      `e.g. ${suggest(ctx, 'watch create', intent, '--type', opts.type, '--url', 'https://example.com/')}`,
    );
  }
  // Asked once every value given is known to be good, before the space is looked up.
  body.visibility ??= await askVisibility(ctx, intent);
  if (spaceRef !== undefined) body.spaceId = await spaceIdFor(ctx, spaceRef);
  return body;
}

/** Sends createWatch (its errors explained) and says when the idempotency key replayed an earlier one. */
async function createWatch(
  ctx: Context,
  api: ApiClient,
  body: Record<string, unknown>,
  idempotencyKey: string | undefined,
): Promise<WatchCreated> {
  let created: WatchCreated;
  let answer: { replayed: boolean; unanswered: number };
  try {
    const result = await api.callFull('createWatch', {
      body,
      idempotencyKey,
      signal: ctx.signal,
    });
    created = result.body;
    answer = result;
  } catch (error) {
    throw await explainCreateError(ctx, error);
  }
  await noteReplay(ctx, answer, idempotencyKey, `created watch ${created.slug}`, 'showing that one');
  return created;
}

/** EMAIL_NOT_VERIFIED and the monthly watch limit, explained. */
async function explainCreateError(ctx: Context, error: unknown): Promise<unknown> {
  if (!(error instanceof ApiError) || error.status !== 403) return error;
  const me = await meOrNothing(ctx);
  if (error.code === 'EMAIL_NOT_VERIFIED') {
    const who = me ? ` (${me.email})` : '';
    return new CliError(`your email address${who} is not verified yet; creating a watch needs a verified address`, {
      exitCode: error.exitCode,
      code: error.code,
      hint: `open the verification link the service sent${who}, then run this again; meanwhile you can follow existing watches: \`${suggest(ctx, 'watch search TOPIC')}\``,
      cause: error,
    });
  }
  const limit = me?.limits.watchesPerMonth;
  const used = me?.usage.watchesThisMonth;
  if (/LIMIT|QUOTA/i.test(error.code) || (limit !== undefined && used !== undefined && used >= limit)) {
    const plan = me ? `your plan (${me.plan.name})` : 'your plan';
    const detail =
      limit !== undefined
        ? ` creates at most ${limit} watch${limit === 1 ? '' : 'es'} a month${used !== undefined ? `, and ${used} ${used === 1 ? 'was' : 'were'} created this month` : ''}`
        : ' has reached its monthly watch limit';
    return new CliError(`monthly watch limit reached: ${plan}${detail}`, {
      exitCode: ExitCode.QUOTA,
      code: error.code,
      hint: `the count starts again next month (\`${suggest(ctx, 'me')}\` shows your limits); meanwhile follow an existing public watch: \`${suggest(ctx, 'watch search TOPIC')}\``,
      cause: error,
    });
  }
  return error;
}

/** What --no-wait prints, declared once: the terminal's lines, the piped row, --json's keys and the help. */
export const startedView: ItemView<WatchCreated> = {
  piped: 'row',
  fields: [
    { key: 'slug', label: 'Slug', json: 'slug' },
    { key: 'task', label: 'Task', json: 'taskId' },
  ],
};

/** --no-wait: the slug and the task that sets the watch up, and how to follow it. */
async function reportStarted(
  ctx: Context,
  created: WatchCreated,
  seenBy: string,
  follow: string,
  show: string,
): Promise<void> {
  if (wantsJson(ctx)) return printItem(ctx, created, startedView);
  await success(ctx, `Created ${seenBy} watch ${created.slug}; it is being set up by task ${created.taskId}`);
  await printItem(ctx, created, startedView);
  await note(ctx, `follow the set-up: ${follow}\nread it once set up: ${show}`);
}

/** Follows the set-up task to its end, then shows the watch and its first brief. */
async function followSetUp(
  ctx: Context,
  api: ApiClient,
  { created, seenBy }: { created: WatchCreated; seenBy: string },
  follow: string,
  show: string,
): Promise<void> {
  await note(
    ctx,
    `Creating ${seenBy} watch ${created.slug}: setting it up (Ctrl-C stops following; the set-up goes on)`,
  );
  const task = await followTask(ctx, created.taskId, {
    label: created.watch.title,
    resumeHint: `follow it with \`${follow}\`, then read the watch with \`${show}\``,
    work: 'the set-up',
  });
  const failure = taskOutcomeError(ctx, task);
  if (failure) throw failure;

  const page = await api.call('getWatch', {
    params: { slug: created.slug },
    query: { lang: ctx.config.lang },
    signal: ctx.signal,
  });
  if (wantsJson(ctx)) return printItem(ctx, page, watchHead);
  await success(
    ctx,
    `Watch ${created.slug} is set up${page.brief ? `: first brief with ${page.brief.entries.length} entries` : ''}`,
  );
  await printView(ctx, page, {
    table: watchHead,
    terminal: (p, f) => renderWatchPage(ctx, p, f),
    piped: plainWatchPage,
  });
}
