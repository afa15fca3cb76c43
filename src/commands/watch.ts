// `kagent watch`: follow subjects, sources and pages, and read their briefs.
//   list       listFollowedWatches (each with its latest brief)
//   create     createWatch, then follows the set-up task and shows the first brief
//   search     searchWatches
//   show       getWatch (--date), with the archive and the method
//   knowledge  getWatchKnowledge (weekly report and timeline)
//   issues     listWatchIssues (newest first; --limit, --all)
//   follow     followWatch (also moves a followed watch to another space)
//   unfollow   unfollowWatch
//   settings   updateWatchSettings (owner only)
// Writes answered with 204 print, with --json, a small object saying what was
// done: {slug, following: false} for unfollow, {slug, ...changes} for settings.
import type { Context } from '../context.js';
import type { FollowedWatch, FollowState, IssueSummary, WatchCard, WatchCreated, WatchPage } from '../api/shapes.js';
import { ApiError, CliError, ExitCode, UsageError } from '../errors.js';
import { checkInput, defineCommand, defineGroup } from './define.js';

// ---------------------------------------------------------------- helpers

async function shapes() {
  return import('../api/shapes.js');
}

/** A space given by id or name, as `space` resolves it. */
async function spaceIdFor(ctx: Context, ref: string): Promise<string> {
  const { resolveSpace } = await import('./space.js');
  return (await resolveSpace(ctx, ref)).id;
}

/** 404s on a watch say how to find one. */
async function watchNotFound(ctx: Context, error: unknown, slug: string): Promise<unknown> {
  if (error instanceof ApiError && error.status === 404 && !error.hint && error.code !== 'BRIEF_NOT_FOUND') {
    const { kagentCommand } = await import('../io/task-follow.js');
    error.hint = `no watch "${slug}" that you can see: \`${kagentCommand(ctx, 'watch list')}\` shows the ones you follow, \`${kagentCommand(ctx, 'watch search TOPIC')}\` finds public ones`;
  }
  return error;
}

async function withWatch<T>(ctx: Context, slug: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw await watchNotFound(ctx, error, slug);
  }
}

/** Reads /me for an error message; undefined when that fails too. */
async function meOrNothing(ctx: Context) {
  try {
    return await (await ctx.api()).call('getMe');
  } catch {
    return undefined;
  }
}

/** EMAIL_NOT_VERIFIED and the monthly watch limit, explained. */
async function explainCreateError(ctx: Context, error: unknown): Promise<unknown> {
  if (!(error instanceof ApiError) || error.status !== 403) return error;
  const { kagentCommand } = await import('../io/task-follow.js');
  const me = await meOrNothing(ctx);
  if (error.code === 'EMAIL_NOT_VERIFIED') {
    const who = me ? ` (${me.email})` : '';
    return new CliError(`your email address${who} is not verified yet; creating a watch needs a verified address`, {
      exitCode: error.exitCode,
      code: error.code,
      hint: `open the verification link the service sent${who}, then run this again; meanwhile you can follow existing watches: \`${kagentCommand(ctx, 'watch search TOPIC')}\``,
      cause: error,
    });
  }
  const limit = me?.limits.watchesPerMonth;
  const used = me?.usage.watchesThisMonth;
  if (/LIMIT|QUOTA/i.test(error.code) || (limit !== undefined && used !== undefined && used >= limit)) {
    const plan = me ? `your plan (${me.plan.name})` : 'your plan';
    const detail = limit !== undefined ? ` creates at most ${limit} watch${limit === 1 ? '' : 'es'} a month${used !== undefined ? `, and ${used} ${used === 1 ? 'was' : 'were'} created this month` : ''}` : ' has reached its monthly watch limit';
    return new CliError(`monthly watch limit reached: ${plan}${detail}`, {
      exitCode: ExitCode.QUOTA,
      code: error.code,
      hint: `the count starts again next month (\`${kagentCommand(ctx, 'me')}\` shows your limits); meanwhile follow an existing public watch: \`${kagentCommand(ctx, 'watch search TOPIC')}\``,
      cause: error,
    });
  }
  return error;
}

// ---------------------------------------------------------------- list

const list = defineCommand<Record<string, never>>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the watches you follow, each with its latest brief',
  examples: [
    'kagent watch list',
    '# slugs of the watches with a brief today',
    `kagent watch list --jq '.[] | select(.latestBrief.date == "2026-01-15") | .slug'`,
    'kagent watch list | cut -f1',
  ],
  async run(ctx) {
    const { printList, wantsJson } = await import('../io/output.js');
    const { kagentCommand } = await import('../io/task-follow.js');
    const api = await ctx.api();
    const { items } = await api.call('listFollowedWatches');
    // Space names only for people; scripts get the id.
    let spaceNames = new Map<string, string>();
    if (ctx.io.stdoutIsTTY && !wantsJson(ctx) && items.some((w) => w.spaceId)) {
      try {
        spaceNames = new Map((await api.call('listSpaces')).items.map((s) => [s.id, s.name]));
      } catch {
        // the ids will do
      }
    }
    await printList<FollowedWatch>(ctx, items, {
      empty: `You follow no watches yet: find one with \`${kagentCommand(ctx, 'watch search TOPIC')}\` or start one with \`${kagentCommand(ctx, 'watch create "what to follow"')}\`.`,
      columns: [
        { header: 'Slug', value: (w) => w.slug },
        { header: 'Title', value: (w) => w.title, flex: true },
        { header: 'Type', value: (w) => w.type, priority: 3 },
        { header: 'Cadence', value: (w) => w.cadence, priority: 3 },
        { header: 'Owner', value: (w) => w.owner, kind: 'bool', priority: 3 },
        { header: 'Space', value: (w) => w.spaceId, display: (w) => (w.spaceId ? (spaceNames.get(w.spaceId) ?? w.spaceId) : ''), only: 'tty' },
        { header: 'Space', value: (w) => w.spaceId, only: 'plain' },
        {
          header: 'Latest brief',
          value: (w) => w.latestBrief?.date ?? '',
          display: (w, f) => (w.latestBrief ? `${w.latestBrief.date} ${f.dim(`· ${w.latestBrief.entryCount} entries`)}` : f.dim('none yet')),
        },
        { header: 'Brief', value: (w) => w.latestBrief?.id ?? '', only: 'plain' },
        { header: 'Entries', value: (w) => w.latestBrief?.entryCount ?? '', only: 'plain' },
        { header: 'Brief title', value: (w) => w.latestBrief?.title ?? '', only: 'plain' },
      ],
    });
  },
});

// ---------------------------------------------------------------- create

interface CreateOptions {
  type?: string;
  url?: string[];
  alert?: string[];
  cadence?: string;
  visibility?: string;
  space?: string;
  wait: boolean;
  idempotencyKey?: string;
}

const create = defineCommand<CreateOptions, { intent?: string }>({
  name: 'create',
  summary: 'Start a watch, follow its set-up and show the first brief',
  description:
    'Creates a watch and follows the task that sets it up (plan, steps, output) until its first brief, covering the last 7 days, is written; then shows that brief. ' +
    'On a terminal the milestones update in place; piped, each one is a line on stderr. Ctrl-C stops following (the set-up goes on) and prints the command that resumes; ' +
    'so does --timeout (exit 8). Every value is checked against the API\'s bounds before anything is sent. Creating a watch counts toward your plan\'s monthly watch limit.',
  arguments: [{ name: 'intent', description: 'one sentence on what to follow', optional: true }],
  options: [
    { flags: '--type <type>', description: 'topic (default: the agent finds sources), sources (the given --url) or pages (watch the --url pages for changes)' },
    { flags: '--url <url>', description: 'a source or page to watch (repeatable)', repeatable: true },
    { flags: '--alert <phrase>', description: 'tell me when an entry mentions this (repeatable)', repeatable: true },
    { flags: '--cadence <cadence>', description: 'daily (default), weekly or off' },
    { flags: '--visibility <visibility>', description: 'public (default), unlisted or private' },
    { flags: '--space <space>', description: "space to file it in, by id or name (default: the profile's space, else your default space)" },
    { flags: '--no-wait', description: 'return at once with the slug and task id' },
    { flags: '--idempotency-key <key>', description: 'reuse this key when rerunning (CI): a rerun within 24 h returns the first watch instead of creating another' },
  ],
  examples: [
    'kagent watch create "EU rules on AI chips export"',
    'kagent watch create "Rust compiler releases" --type sources --url https://blog.rust-lang.org/ --cadence weekly',
    'kagent watch create "Pricing page changes" --type pages --url https://example.com/pricing --alert "price increase"',
    '# in a script: start it and come back later',
    'kagent watch create "Battery recycling" --no-wait --json | jq -r .taskId',
    'kagent watch create "Battery recycling" --timeout 30 || kagent task watch TASK_ID',
  ],
  async run(ctx, opts, args) {
    const S = await shapes();
    const { askText } = await import('../io/prompt.js');
    const intent =
      args.intent ??
      (await askText(ctx, {
        message: 'What should the watch follow? (one sentence)',
        flag: 'INTENT (the first argument)',
        what: 'what to follow',
      }));
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
      spaceId: opts.space !== undefined ? '--space' : 'the profile\'s space',
      lang: '--lang',
    });
    const { checkIdempotencyKey } = await import('./idempotency-key.js');
    await checkIdempotencyKey(opts.idempotencyKey);
    if ((opts.type === 'sources' || opts.type === 'pages') && (opts.url ?? []).length === 0) {
      throw new UsageError(`--type ${opts.type} needs at least one --url`, `e.g. kagent watch create "${intent}" --type ${opts.type} --url https://example.com/`);
    }
    if (spaceRef !== undefined) body.spaceId = await spaceIdFor(ctx, spaceRef);

    const { printItem, printJson, note, success, wantsJson } = await import('../io/output.js');
    const { followTask, kagentCommand, taskOutcomeError } = await import('../io/task-follow.js');
    const api = await ctx.api();
    let created: WatchCreated;
    let replayed = false;
    try {
      const result = await api.callFull('createWatch', { body, idempotencyKey: opts.idempotencyKey, signal: ctx.signal });
      created = result.body;
      replayed = result.replayed;
    } catch (error) {
      throw await explainCreateError(ctx, error);
    }
    if (replayed) await note(ctx, `this key already created watch ${created.slug} within the last 24 hours: showing that one`);

    const follow = kagentCommand(ctx, `task watch ${created.taskId}`);
    const show = kagentCommand(ctx, `watch show ${created.slug}`);
    if (!opts.wait) {
      if (wantsJson(ctx)) return printJson(ctx, created);
      await success(ctx, `Created watch ${created.slug}; it is being set up by task ${created.taskId}`);
      await printItem(ctx, created, (c, f) => (f.tty ? f.fields([['Slug', c.slug], ['Task', c.taskId]]) : `${c.slug}\t${c.taskId}`));
      await note(ctx, `follow the set-up: ${follow}\nread it once set up: ${show}`);
      return;
    }

    await note(ctx, `Creating watch ${created.slug}: setting it up (Ctrl-C stops following; the set-up goes on)`);
    const task = await followTask(ctx, created.taskId, {
      label: created.watch.title,
      resumeHint: `the watch is still being set up: follow it with \`${follow}\`, then read it with \`${show}\``,
    });
    const failure = taskOutcomeError(ctx, task);
    if (failure) throw failure;

    const page = await api.call('getWatch', { params: { slug: created.slug }, query: { lang: ctx.config.lang }, signal: ctx.signal });
    if (wantsJson(ctx)) return printJson(ctx, page);
    await success(ctx, `Watch ${created.slug} is set up${page.brief ? `: first brief with ${page.brief.entries.length} entries` : ''}`);
    const { renderWatchPage } = await import('../io/brief.js');
    await printItem(ctx, page, (p, f) => renderWatchPage(ctx, p, f));
  },
});

// ---------------------------------------------------------------- search

const search = defineCommand<Record<string, never>, { query: string }>({
  name: 'search',
  summary: 'Find public watches to follow',
  arguments: [{ name: 'query', description: 'words to look for in titles and intents' }],
  examples: ['kagent watch search "ai chips"', 'kagent watch search battery --json | jq -r ".[].slug"', 'kagent watch search rust | cut -f1 | head -1 | xargs kagent watch follow'],
  async run(ctx, _opts, args) {
    const S = await shapes();
    checkInput(S.Queries.searchWatches, { q: args.query }, { q: 'QUERY' });
    const { printList } = await import('../io/output.js');
    const { kagentCommand } = await import('../io/task-follow.js');
    const { items } = await (await ctx.api()).call('searchWatches', { query: { q: args.query } });
    await printList<WatchCard>(ctx, items, {
      empty: `No public watch matches "${args.query}": start one with \`${kagentCommand(ctx, `watch create "${args.query.replace(/"/g, '')}"`)}\``,
      columns: [
        { header: 'Slug', value: (w) => w.slug },
        { header: 'Title', value: (w) => w.title, flex: true },
        { header: 'Type', value: (w) => w.type },
        { header: 'Cadence', value: (w) => w.cadence },
        { header: 'Followers', value: (w) => w.followers, kind: 'number' },
        { header: 'Last brief', value: (w) => w.lastBriefAt, kind: 'time' },
        { header: 'Intent', value: (w) => w.intent, only: 'plain' },
      ],
    });
  },
});

// ---------------------------------------------------------------- show

const show = defineCommand<{ date?: string }, { slug: string }>({
  name: 'show',
  pager: true,
  aliases: ['view'],
  summary: "Read a watch's brief (latest, or of a date), with its archive and method",
  description:
    'Entries come by position with their importance, category, headline, summary (Markdown, rendered on a terminal), why it matters, the primary link and the evidence. ' +
    'Links are clickable where the terminal supports it. Piped, the watch is label/value lines, then `--`, then one tab-separated row per entry: ' +
    'position, importance, category, headline, primary URL, entry id. --lang reads the brief in the other language.',
  arguments: [{ name: 'slug', description: 'the watch' }],
  options: [{ flags: '--date <YYYY-MM-DD>', description: 'the brief of this date instead of the latest (see the archive)' }],
  examples: [
    'kagent watch show ai-chips',
    'kagent watch show ai-chips --date 2026-01-14',
    'kagent watch show ai-chips --lang zh',
    '# entry ids and headlines of the latest brief',
    `kagent watch show ai-chips --jq '.brief.entries[] | [.id, .headline] | @tsv'`,
  ],
  async run(ctx, opts, args) {
    const S = await shapes();
    const query = { date: opts.date, lang: ctx.config.lang };
    checkInput(S.Queries.getWatch, query, { date: '--date', lang: '--lang' });
    const { printItem } = await import('../io/output.js');
    const page = await withWatch(ctx, args.slug, async () =>
      (await ctx.api()).call('getWatch', { params: { slug: args.slug }, query, signal: ctx.signal }),
    ).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404 && opts.date && error.code !== 'WATCH_NOT_FOUND') {
        error.hint = `no brief of ${opts.date}: \`kagent watch issues ${args.slug}\` lists the dates there are`;
      }
      throw error;
    });
    const { renderWatchPage } = await import('../io/brief.js');
    await printItem<WatchPage>(ctx, page, (p, f) => renderWatchPage(ctx, p, f));
  },
});

// ---------------------------------------------------------------- knowledge

const knowledge = defineCommand<Record<string, never>, { slug: string }>({
  name: 'knowledge',
  pager: true,
  summary: "A watch's latest weekly report and its timeline of important items",
  description: 'Piped, the report\'s Markdown source comes first, then `--`, then one row per timeline item: date, importance, entry id, headline, URL.',
  arguments: [{ name: 'slug', description: 'the watch' }],
  examples: ['kagent watch knowledge ai-chips', 'kagent watch knowledge ai-chips --jq .report.markdown', `kagent watch knowledge ai-chips --jq '.timeline[] | select(.importance > 0.9) | .headline'`],
  async run(ctx, _opts, args) {
    const { printItem } = await import('../io/output.js');
    const data = await withWatch(ctx, args.slug, async () => (await ctx.api()).call('getWatchKnowledge', { params: { slug: args.slug }, signal: ctx.signal }));
    const { renderKnowledge } = await import('../io/brief.js');
    await printItem(ctx, data, (k, f) => renderKnowledge(ctx, k, f));
  },
});

// ---------------------------------------------------------------- issues

const issues = defineCommand<{ limit?: number; all?: boolean }, { slug: string }>({
  name: 'issues',
  summary: "A watch's briefs, newest first",
  arguments: [{ name: 'slug', description: 'the watch' }],
  options: [
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every brief, following every page' },
  ],
  examples: ['kagent watch issues ai-chips', 'kagent watch issues ai-chips --all --json | jq length', 'kagent watch issues ai-chips --limit 5 | cut -f1'],
  async run(ctx, opts, args) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const { printList } = await import('../io/output.js');
    const api = await ctx.api();
    const items = api.paginate('listWatchIssues', { params: { slug: args.slug }, signal: ctx.signal }, { limit: opts.limit, all: opts.all });
    await withWatch(ctx, args.slug, () =>
      printList<IssueSummary>(ctx, items, {
        empty: `No briefs yet for ${args.slug}.`,
        columns: [
          { header: 'Date', value: (i) => i.date },
          { header: 'Id', value: (i) => i.id },
          { header: 'Entries', value: (i) => i.entryCount, kind: 'number' },
          { header: 'Title', value: (i) => i.title, flex: true },
          { header: 'Top headline', value: (i) => i.headlines[0] ?? '', flex: true, only: 'tty' },
          { header: 'Created', value: (i) => i.createdAt, only: 'plain' },
        ],
      }),
    );
  },
});

// ---------------------------------------------------------------- follow / unfollow

const follow = defineCommand<{ space?: string }, { slug: string }>({
  name: 'follow',
  summary: 'Follow a watch, or move one you follow to another space',
  description: 'Your plan follows at most a number of watches (`kagent me` shows it). Following a watch you already follow moves it to --space.',
  arguments: [{ name: 'slug', description: 'the watch' }],
  options: [{ flags: '--space <space>', description: 'the space to file it in, by id or name (default: where it is, or your default space)' }],
  examples: ['kagent watch follow ai-chips', 'kagent watch follow ai-chips --space Research', 'kagent watch follow ai-chips --json'],
  async run(ctx, opts, args) {
    const S = await shapes();
    const body: Record<string, unknown> = {};
    if (opts.space !== undefined) body.spaceId = opts.space;
    checkInput(S.FollowRequest, body, { spaceId: '--space' });
    let spaceName: string | undefined;
    if (opts.space !== undefined) {
      const { resolveSpace } = await import('./space.js');
      const space = await resolveSpace(ctx, opts.space);
      body.spaceId = space.id;
      spaceName = space.name;
    }
    const { printItem, success } = await import('../io/output.js');
    const api = await ctx.api();
    let state: FollowState;
    try {
      state = await withWatch(ctx, args.slug, () => api.call('followWatch', { params: { slug: args.slug }, body, signal: ctx.signal }));
    } catch (error) {
      throw await explainFollowError(ctx, error);
    }
    await success(ctx, `Following ${state.slug}${spaceName ? ` in ${spaceName}` : ''} (${state.followers} ${state.followers === 1 ? 'follower' : 'followers'})`);
    await printItem(ctx, state, (s, f) => (f.tty ? '' : [s.slug, s.following, s.spaceId ?? '', s.followers].join('\t')));
  },
});

/** FOLLOW_LIMIT: say the plan's limit (from GET /me) and what to do. */
async function explainFollowError(ctx: Context, error: unknown): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'FOLLOW_LIMIT') return error;
  const me = await meOrNothing(ctx);
  const { kagentCommand } = await import('../io/task-follow.js');
  const limit = me?.limits.follows;
  const message =
    limit === undefined
      ? 'you follow as many watches as your plan allows'
      : `your plan (${me?.plan.name}) follows at most ${limit} watch${limit === 1 ? '' : 'es'}, and you follow ${me?.usage.follows ?? limit}`;
  return new CliError(message, {
    exitCode: ExitCode.QUOTA,
    code: 'FOLLOW_LIMIT',
    hint: `unfollow one first (\`${kagentCommand(ctx, 'watch list')}\`, then \`${kagentCommand(ctx, 'watch unfollow SLUG')}\`), or move to a plan with more follows`,
    cause: error,
  });
}

const unfollow = defineCommand<Record<string, never>, { slug: string }>({
  name: 'unfollow',
  summary: 'Stop following a watch',
  description: 'With --json prints {"slug": ..., "following": false} (the service answers 204 with no body).',
  arguments: [{ name: 'slug', description: 'the watch' }],
  examples: ['kagent watch unfollow ai-chips', 'kagent watch list | cut -f1 | grep ^test- | xargs -n1 kagent watch unfollow'],
  async run(ctx, _opts, args) {
    const { printItem, success } = await import('../io/output.js');
    await withWatch(ctx, args.slug, async () => (await ctx.api()).call('unfollowWatch', { params: { slug: args.slug }, signal: ctx.signal }));
    await success(ctx, `No longer following ${args.slug}`);
    await printItem(ctx, { slug: args.slug, following: false }, (s, f) => (f.tty ? '' : `${s.slug}\tfalse`));
  },
});

// ---------------------------------------------------------------- settings

const settings = defineCommand<{ cadence?: string; alert?: string[]; clearAlerts?: boolean }, { slug: string }>({
  name: 'settings',
  summary: "Change a watch's cadence and alerts (owner only)",
  description:
    'Only the owner of a watch (who created it) can change its settings; followers cannot. --alert replaces the whole list of alert phrases; --clear-alerts removes them all. ' +
    'With --json prints {"slug": ..., and the settings sent} (the service answers 204 with no body).',
  arguments: [{ name: 'slug', description: 'a watch you own' }],
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
    const { printItem, success } = await import('../io/output.js');
    try {
      await withWatch(ctx, args.slug, async () => (await ctx.api()).call('updateWatchSettings', { params: { slug: args.slug }, body, signal: ctx.signal }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        const { kagentCommand } = await import('../io/task-follow.js');
        throw new CliError(`only the owner of a watch can change its settings, and ${args.slug} was created by someone else`, {
          exitCode: error.exitCode,
          code: error.code,
          hint: `you can still follow or unfollow it; for your own cadence and alerts, start a watch of your own: \`${kagentCommand(ctx, 'watch create "what to follow"')}\``,
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

export default defineGroup({
  name: 'watch',
  summary: 'Follow subjects, sources and pages, and read their briefs',
  description: 'A watch follows a subject, a set of sources or a few pages and writes a brief on a schedule. Each brief is made of entries, each linked to its evidence.',
  examples: [
    'kagent watch create "EU rules on AI chips export"',
    'kagent watch list',
    'kagent watch show ai-chips',
    'kagent watch search battery && kagent watch follow battery-recycling',
  ],
  commands: [list, create, search, show, knowledge, issues, follow, unfollow, settings],
});
