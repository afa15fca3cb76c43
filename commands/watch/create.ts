import type { Context } from '../../src/context.js';
import type { ApiClient } from '../../src/api/client.js';
import type { WatchCreated } from '../../src/api/shapes.js';
import { ApiError, CliError, ExitCode, UsageError, onInterruptSay } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { idempotencyKeyOption, spaceOption } from '../../src/kit/options.js';
import { spaceIdFor } from '../../src/kit/space.js';
import { meOrNothing } from './shared.js';
import { askText } from '../../src/io/prompt.js';
import { printItem, printJson, note, success, wantsJson } from '../../src/io/output.js';
import { checkIdempotencyKey, noteReplay } from '../../src/kit/idempotency-key.js';
import { followTask, taskOutcomeError } from '../../src/follow/task.js';
import { renderWatchPage } from '../../src/views/brief.js';
import * as S from '../../src/api/shapes.js';

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

export default defineCommand({
  name: 'create',
  summary: 'Start a watch, follow its set-up and show the first brief',
  description:
    'Creates a watch and follows the task that sets it up (plan, steps, output) until its first brief, covering the last 7 days, is written; then shows that brief. ' +
    'On a terminal the milestones update in place; piped, each one is a line on stderr. Ctrl-C stops following (the set-up goes on) and prints the command that resumes; ' +
    "so does --timeout (exit 8). Every value is checked against the API's bounds before anything is sent. Creating a watch counts toward your plan's monthly watch limit.",
  arguments: [{ name: 'intent', description: 'one sentence on what to follow', optional: true }],
  options: [
    {
      flags: '--type <type>',
      description:
        'topic (default: the agent finds sources), sources (the given --url) or pages (watch the --url pages for changes)',
    },
    { flags: '--url <url>', description: 'a source or page to watch (repeatable)', repeatable: true },
    { flags: '--alert <phrase>', description: 'tell me when an entry mentions this (repeatable)', repeatable: true },
    { flags: '--cadence <cadence>', description: 'daily (default), weekly or off' },
    {
      flags: '--visibility <visibility>',
      description:
        'public (anyone can find and follow it), unlisted (only with its link) or private (only you); on a terminal kagent asks when this is not given, elsewhere it must be given',
    },
    spaceOption("space to file it in, by id or name (default: the profile's space, else your default space)"),
    { flags: '--no-wait', description: 'return at once with the slug and task id' },
    idempotencyKeyOption('a rerun within 24 h returns the first watch instead of creating another', 'watch'),
  ],
  examples: [
    'kagent watch create "EU rules on AI chips export"',
    'kagent watch create "Rust compiler releases" --type sources --url https://blog.rust-lang.org/ --cadence weekly',
    'kagent watch create "Pricing page changes" --type pages --url https://example.com/pricing --alert "price increase"',
    '# in a script: start it and come back later',
    'kagent watch create "Battery recycling" --visibility private --no-wait --json | jq -r .taskId',
    'kagent watch create "Battery recycling" --visibility private --timeout 30 || kagent task show TASK_ID --follow',
  ],
  async run(ctx, opts, args) {
    // Ctrl-C at the questions: its one quiet line says that nothing was created.
    const body = await onInterruptSay('nothing was created', async () => {
      const intent =
        args.intent ??
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
  },
});

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

/** The options of `watch create` that make the request. */
interface CreateOptions {
  type?: string;
  url?: string[];
  alert?: string[];
  cadence?: string;
  visibility?: string;
  space?: string;
  idempotencyKey?: string;
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

/** --no-wait: the slug and the task that sets the watch up, and how to follow it. */
async function reportStarted(
  ctx: Context,
  created: WatchCreated,
  seenBy: string,
  follow: string,
  show: string,
): Promise<void> {
  if (wantsJson(ctx)) return printJson(ctx, created);
  await success(ctx, `Created ${seenBy} watch ${created.slug}; it is being set up by task ${created.taskId}`);
  await printItem(ctx, created, (c, f) =>
    f.tty
      ? f.fields([
          ['Slug', c.slug],
          ['Task', c.taskId],
        ])
      : `${c.slug}\t${c.taskId}`,
  );
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
  if (wantsJson(ctx)) return printJson(ctx, page);
  await success(
    ctx,
    `Watch ${created.slug} is set up${page.brief ? `: first brief with ${page.brief.entries.length} entries` : ''}`,
  );
  await printItem(ctx, page, (p, f) => renderWatchPage(ctx, p, f));
}
