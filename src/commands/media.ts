// `kagent media`: video and podcast links become timestamped transcripts and summaries.
//   quote       quoteMedia: duration and credit cost, nothing spent
//   start       quote, show the cost, confirm (credit-spending), startMedia, then
//               follow until ready: segments as they arrive, then summary and chapters
//   list        listMedia (most recently saved first; --space, --limit, --all)
//   show        getMedia (--follow follows like start)
//   transcript  getTranscript (Markdown with timestamp links; --from/--to)
// Following is src/io/media.ts on the shared poller: --timeout exits 8 and
// Ctrl-C 130, both with `kagent media show ID --follow` to pick it up again.
import type { Context } from '../context.js';
import type { MediaItem, MediaPage, MediaQuote, MediaStarted } from '../api/shapes.js';
import { ApiError, CliError, ExitCode, UsageError } from '../errors.js';
import { checkInput, defineCommand, defineGroup, InputError } from './define.js';
import { checkIdempotencyKey } from './idempotency-key.js';

// ---------------------------------------------------------------- helpers

async function shapes() {
  return import('../api/shapes.js');
}

/** `kagent WORDS ARGS…` as this user would retype it; ARGS are shell-quoted. */
async function command(ctx: Context, words: string, ...args: string[]): Promise<string> {
  const { kagentCommand, shellQuote } = await import('../io/task-follow.js');
  return kagentCommand(ctx, [words, ...args.map(shellQuote)].join(' '));
}

/** 404s on a media item say how to find one. */
async function mediaHint(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (error instanceof ApiError && error.status === 404 && !error.hint) {
    error.hint = `no media "${id}": \`${await command(ctx, 'media list')}\` shows the ids`;
  }
  return error;
}

async function withMedia<T>(ctx: Context, id: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw await mediaHint(ctx, error, id);
  }
}

async function followHint(ctx: Context, id: string): Promise<string> {
  return `follow it again with \`${await command(ctx, `media show ${id} --follow`)}\``;
}

/** Credits left, for the cost prompt and CREDITS_EXHAUSTED; undefined when /me cannot say. */
async function creditsLeft(ctx: Context): Promise<number | undefined> {
  try {
    const me = await (await ctx.api()).call('getMe', { signal: ctx.signal });
    return typeof me.credits?.total === 'number' ? me.credits.total : undefined;
  } catch {
    return undefined;
  }
}

/** Quote and start errors in words: a link that cannot be transcribed (2), MEDIA_UNAVAILABLE (7), CREDITS_EXHAUSTED (6). */
async function explainMediaError(ctx: Context, error: unknown, url: string, quote?: MediaQuote): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 'MEDIA_UNAVAILABLE' || (error.status === 503 && !error.hint)) {
    const wait = error.retryAfterMs !== undefined ? ` in ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s` : ' later';
    return new CliError(`transcription is unavailable right now: ${error.message}`, {
      exitCode: ExitCode.UNAVAILABLE,
      code: error.code,
      hint: `nothing was started or charged; try again${wait}: \`${await command(ctx, 'media start', url)}\``,
      cause: error,
    });
  }
  if (error.code === 'CREDITS_EXHAUSTED') {
    const left = await creditsLeft(ctx);
    const cost = quote ? `it costs ${quote.credits} credits (${quote.minutes} minutes at ${quote.pricePerMinute} per minute)` : 'it costs more than is left';
    return new CliError(`not enough credits to transcribe this: ${cost}${left !== undefined ? `, and ${left} ${left === 1 ? 'is' : 'are'} left` : ''}`, {
      exitCode: ExitCode.QUOTA,
      code: error.code,
      hint: `nothing was started; \`${await command(ctx, 'me')}\` shows your credits by pool and when they reset`,
      cause: error,
    });
  }
  if (error.status === 400 && error.code !== 'INVALID_INPUT' && !error.hint) {
    error.hint = `only video pages (YouTube, Vimeo, …), podcast episodes and audio/video file links can be transcribed; to save a web page, use \`${await command(ctx, 'lib save', url)}\``;
  }
  return error;
}

function checkUrl(url: string): void {
  if (!/^https?:\/\//i.test(url)) throw new UsageError(`URL must be an http:// or https:// link (got "${url}")`);
}

async function getQuote(ctx: Context, url: string): Promise<MediaQuote> {
  const S = await shapes();
  const body = { url };
  checkInput(S.QuoteMediaRequest, body, { url: 'URL' });
  checkUrl(url);
  const api = await ctx.api();
  const { withSpinner } = await import('../io/spinner.js');
  try {
    return await withSpinner(ctx, 'Checking the link…', () => api.call('quoteMedia', { body, signal: ctx.signal }));
  } catch (error) {
    throw await explainMediaError(ctx, error, url);
  }
}

/** "0:47:10 (48 minutes)" */
async function durationText(quote: Pick<MediaQuote, 'durationSec' | 'minutes'>): Promise<string> {
  const { timecode } = await import('../io/media.js');
  return `${timecode(quote.durationSec)} (${quote.minutes} minute${quote.minutes === 1 ? '' : 's'})`;
}

// ---------------------------------------------------------------- quote

const quote = defineCommand<Record<string, never>, { url: string }>({
  name: 'quote',
  summary: 'How long a video or podcast is and what transcribing it costs (nothing is spent)',
  description: 'One price per minute; the summary and translation are included. Piped: "key<TAB>value" lines (url, title, kind, duration-sec, minutes, price-per-minute, credits).',
  arguments: [{ name: 'url', description: 'a video page, podcast episode or audio/video file link' }],
  examples: ['kagent media quote https://www.youtube.com/watch?v=dQw4w9WgXcQ', "kagent media quote https://example.com/episode.mp3 --jq .credits", 'kagent media quote URL | grep ^credits | cut -f2'],
  async run(ctx, _opts, args) {
    const q = await getQuote(ctx, args.url);
    const { printItem, wantsJson } = await import('../io/output.js');
    const left = ctx.io.stdoutIsTTY && !wantsJson(ctx) ? await creditsLeft(ctx) : undefined;
    const duration = await durationText(q);
    await printItem(ctx, q, (item, f) =>
      f.tty
        ? [
            f.bold(item.title),
            f.fields([
              ['Link', item.url],
              ['Kind', item.kind],
              ['Duration', duration],
              ['Cost', `${f.number(item.credits)} credits (${f.number(item.pricePerMinute)} per minute; summary and translation included)`],
              ['Credits', left === undefined ? undefined : `${f.number(left)} left${left < item.credits ? f.yellow(' — not enough') : ''}`],
            ]),
          ].join('\n')
        : f.fields([
            ['url', item.url],
            ['title', item.title],
            ['kind', item.kind],
            ['duration-sec', String(item.durationSec)],
            ['minutes', String(item.minutes)],
            ['price-per-minute', String(item.pricePerMinute)],
            ['credits', String(item.credits)],
          ]),
    );
  },
});

// ---------------------------------------------------------------- start

interface StartOptions {
  space?: string;
  wait: boolean;
  idempotencyKey?: string;
}

const start = defineCommand<StartOptions, { url: string }>({
  name: 'start',
  summary: 'Transcribe a video or podcast: see the cost, confirm, then read it as it arrives',
  description: [
    'Asks for a quote first and shows the cost; spending credits needs a yes: on a terminal kagent asks, elsewhere pass --yes (without it: exit 2, nothing spent). ' +
      'Then follows the transcription until it is ready: segments are printed as they arrive ("[h:mm:ss] text", one line each), then the summary and the chapters. ' +
      'With --json, prints the finished MediaPage (or MediaStarted with --no-wait).',
    'Ctrl-C stops following (exit 130) and --timeout stops waiting (exit 8); the transcription goes on, and `kagent media show ID --follow` picks it up again. ' +
      'Not enough credits is CREDITS_EXHAUSTED (exit 6); transcription being unavailable is MEDIA_UNAVAILABLE (exit 7).',
  ].join('\n\n'),
  arguments: [{ name: 'url', description: 'a video page, podcast episode or audio/video file link' }],
  options: [
    { flags: '--space <space>', description: "the space to save it in (id or name; default: the profile's space, else your default space)" },
    { flags: '--no-wait', description: 'return at once with the media and task ids' },
    { flags: '--idempotency-key <key>', description: 'reuse this key when rerunning (CI): a rerun within 24 h returns the first start instead of paying twice' },
  ],
  examples: [
    'kagent media start https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'kagent media start https://example.com/episode.mp3 --yes > episode.txt',
    'kagent media start URL --yes --no-wait --json | jq -r .mediaId',
    'kagent media start URL --yes --timeout 60 || kagent media show MEDIA_ID --follow',
  ],
  async run(ctx, opts, args) {
    const S = await shapes();
    const body: Record<string, unknown> = { url: args.url };
    if (ctx.config.lang !== undefined) body.lang = ctx.config.lang;
    const spaceRef = opts.space ?? ctx.config.space;
    if (spaceRef !== undefined) body.spaceId = spaceRef;
    checkInput(S.StartMediaRequest, body, { url: 'URL', lang: '--lang', spaceId: opts.space !== undefined ? '--space' : "the profile's space" });
    checkUrl(args.url);
    await checkIdempotencyKey(opts.idempotencyKey);
    // Costly: refuse early, before any request, when nobody can say yes.
    if (!ctx.flags.yes && !ctx.io.canPrompt) {
      const { confirmOrYes } = await import('../io/prompt.js');
      await confirmOrYes(ctx, { message: '', action: `spend credits transcribing ${args.url}` });
    }
    if (spaceRef !== undefined) {
      const { resolveSpace } = await import('./space.js');
      body.spaceId = (await resolveSpace(ctx, spaceRef)).id;
    }

    const q = await getQuote(ctx, args.url);
    const { sanitizeLine } = await import('../io/sanitize.js');
    const { note, printItem, printJson, success, wantsJson } = await import('../io/output.js');
    const { timecode } = await import('../io/media.js');
    const what = `"${sanitizeLine(q.title)}" (${q.kind}, ${timecode(q.durationSec)}, ${q.minutes} minute${q.minutes === 1 ? '' : 's'})`;
    await note(ctx, `Transcribing ${what} costs ${q.credits} credits (${q.pricePerMinute} per minute).`);
    if (!ctx.flags.yes) {
      const left = await creditsLeft(ctx);
      const { confirmOrYes } = await import('../io/prompt.js');
      await confirmOrYes(ctx, {
        message: `Spend ${q.credits} credits to transcribe ${what}?${left !== undefined ? ` You have ${left}.` : ''}`,
        action: `spend ${q.credits} credits transcribing ${args.url}`,
      });
    }

    const api = await ctx.api();
    let started: MediaStarted;
    let replayed = false;
    try {
      const result = await api.callFull('startMedia', { body, idempotencyKey: opts.idempotencyKey, signal: ctx.signal });
      started = result.body;
      replayed = result.replayed;
    } catch (error) {
      throw await explainMediaError(ctx, error, args.url, q);
    }
    if (replayed) await note(ctx, `this key already started ${started.mediaId} within the last 24 hours: nothing new was charged`);

    const show = await command(ctx, `media show ${started.mediaId}`);
    if (!opts.wait) {
      if (wantsJson(ctx)) return printJson(ctx, started);
      await success(ctx, `Started ${started.mediaId} (task ${started.taskId}) for ${started.credits} credits`);
      await printItem(ctx, started, (s, f) => (f.tty ? '' : `${s.mediaId}\t${s.taskId}`));
      await note(ctx, `follow it: ${show} --follow`);
      return;
    }
    await note(ctx, `Started ${started.mediaId} for ${started.credits} credits (Ctrl-C stops following; the transcription goes on)`);
    const { followMedia } = await import('../io/media.js');
    const last = await followMedia(ctx, started.mediaId, { resumeHint: await followHint(ctx, started.mediaId) });
    await finishFollowing(ctx, last);
  },
});

/** After following: a failed transcription is exit 1; --json gets the whole page; a person gets a last line. */
async function finishFollowing(ctx: Context, last: MediaPage): Promise<void> {
  const { printJson, success, wantsJson } = await import('../io/output.js');
  const { sanitizeLine } = await import('../io/sanitize.js');
  if (last.status === 'failed') {
    throw new CliError(`transcribing ${last.id} failed: ${sanitizeLine(last.title)}`, {
      code: 'MEDIA_FAILED',
      hint: last.taskId ? `\`${await command(ctx, `task show ${last.taskId}`)}\` shows how far it got` : `\`${await command(ctx, `media show ${last.id}`)}\` shows what was transcribed`,
    });
  }
  if (wantsJson(ctx)) {
    const full = await (await ctx.api()).call('getMedia', { params: { id: last.id }, query: { lang: ctx.config.lang }, signal: ctx.signal });
    await printJson(ctx, full);
    return;
  }
  if (last.status === 'ready') {
    await success(ctx, `Transcribed ${sanitizeLine(last.title)} (${last.id}); the whole transcript as Markdown: ${await command(ctx, `media transcript ${last.id}`)}`);
  }
}

// ---------------------------------------------------------------- list

interface ListOptions {
  space?: string;
  limit?: number;
  all?: boolean;
}

const list = defineCommand<ListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List transcribed videos and podcasts, most recently saved first',
  description: 'Columns when piped: id, status, kind, duration (seconds), title, saved (ISO time), url, space id.',
  options: [
    { flags: '--space <space>', description: 'only media of this space (id or name)' },
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page, 50)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every item, following every page' },
  ],
  examples: ['kagent media list', 'kagent media list --all --json | jq -r ".[] | select(.status == \\"ready\\") | .id"', 'kagent media list | cut -f1,5'],
  async run(ctx, opts) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const S = await shapes();
    const query: Record<string, string | undefined> = { space: opts.space };
    checkInput(S.Queries.listMedia, query, { space: '--space' });
    if (opts.space !== undefined) {
      const { resolveSpace } = await import('./space.js');
      query.space = (await resolveSpace(ctx, opts.space)).id;
    }
    const api = await ctx.api();
    const { printList } = await import('../io/output.js');
    const { timecode } = await import('../io/media.js');
    const items = api.paginate('listMedia', { query, signal: ctx.signal }, { limit: opts.limit, all: opts.all });
    await printList<MediaItem>(ctx, items, {
      empty: `No media yet: transcribe a video or podcast with \`${await command(ctx, 'media start URL')}\`.`,
      columns: [
        { header: 'Id', value: (m) => m.id },
        { header: 'Status', value: (m) => m.status, display: (m, f) => (m.status === 'ready' ? m.status : m.status === 'failed' ? f.red(m.status) : f.cyan(m.status)) },
        { header: 'Kind', value: (m) => m.kind },
        { header: 'Duration', value: (m) => m.durationSec, display: (m) => timecode(m.durationSec) },
        { header: 'Title', value: (m) => m.title, flex: true },
        { header: 'Saved', value: (m) => m.createdAt, kind: 'time' },
        { header: 'Url', value: (m) => m.url, only: 'plain' },
        { header: 'Space', value: (m) => m.spaceId, only: 'plain' },
      ],
    });
  },
});

// ---------------------------------------------------------------- show

const show = defineCommand<{ follow?: boolean }, { id: string }>({
  name: 'show',
  aliases: ['view'],
  summary: 'Show a media item: its transcript segments, summary and chapters',
  description:
    'Prints the title, one line per transcript segment ("[h:mm:ss] text"), then the summary and chapters once it is ready. ' +
    'While it is still being transcribed, --follow keeps printing segments as they arrive until it is ready (as `media start` does); ' +
    '--timeout stops waiting (exit 8) and Ctrl-C stops following (exit 130). A transcription that failed exits 1 with --follow. --json prints the MediaPage.',
  arguments: [{ name: 'id', description: 'the media item (ids are shown by `media list`)' }],
  options: [{ flags: '--follow', description: 'keep following until it is ready' }],
  examples: ['kagent media show md_3k9x0q', 'kagent media show md_3k9x0q --follow', "kagent media show md_3k9x0q --jq '.chapters[] | .title'", "kagent media show md_3k9x0q | grep '^\\['"],
  async run(ctx, opts, args) {
    const { followMedia, isMediaActive, printMedia } = await import('../io/media.js');
    if (opts.follow) {
      const last = await withMedia(ctx, args.id, async () => followMedia(ctx, args.id, { resumeHint: await followHint(ctx, args.id) }));
      await finishFollowing(ctx, last);
      return;
    }
    // Paged unless following (segments must show as they arrive).
    await ctx.io.page();
    const api = await ctx.api();
    const page = await withMedia(ctx, args.id, () => api.call('getMedia', { params: { id: args.id }, query: { lang: ctx.config.lang }, signal: ctx.signal }));
    const { printJson, wantsJson, note, warn } = await import('../io/output.js');
    if (wantsJson(ctx)) return printJson(ctx, page);
    await printMedia(ctx, page);
    if (isMediaActive(page.status)) await note(ctx, `Still ${page.status}: follow it with \`${await command(ctx, `media show ${page.id} --follow`)}\``);
    else if (page.status === 'failed') await warn(ctx, `transcribing ${page.id} failed${page.taskId ? `: \`${await command(ctx, `task show ${page.taskId}`)}\` shows how far it got` : ''}`);
  },
});

// ---------------------------------------------------------------- transcript

const transcript = defineCommand<{ from?: string; to?: string }, { id: string }>({
  name: 'transcript',
  pager: true,
  summary: 'The summary and transcript as Markdown with timestamp links',
  description:
    'Rendered on a terminal; the Markdown source when piped; --json prints the Transcript. ' +
    '--from and --to limit it to a time range, given as seconds (90), m:ss (1:30) or h:mm:ss (1:01:30). ' +
    'Only a media item that is ready has a transcript: before that the service answers MEDIA_NOT_READY (exit 2).',
  arguments: [{ name: 'id', description: 'the media item' }],
  options: [
    { flags: '--from <time>', description: 'start at this time (seconds, m:ss or h:mm:ss)' },
    { flags: '--to <time>', description: 'end at this time (seconds, m:ss or h:mm:ss)' },
  ],
  examples: ['kagent media transcript md_3k9x0q', 'kagent media transcript md_3k9x0q --from 10:00 --to 15:30', 'kagent media transcript md_3k9x0q > talk.md', 'kagent media transcript md_3k9x0q --lang zh --jq .markdown'],
  async run(ctx, opts, args) {
    const { parseTimecode, timecode } = await import('../io/media.js');
    const time = (value: string | undefined, flag: string): number | undefined => {
      if (value === undefined) return undefined;
      const seconds = parseTimecode(value);
      if (seconds === undefined) throw new InputError(`${flag} must be a time as seconds (90), m:ss (1:30) or h:mm:ss (1:01:30) (got "${value}")`, [{ path: flag, message: 'must be seconds, m:ss or h:mm:ss' }]);
      return seconds;
    };
    const from = time(opts.from, '--from');
    const to = time(opts.to, '--to');
    const S = await shapes();
    const query = { lang: ctx.config.lang, from, to };
    checkInput(S.Queries.getTranscript, query, { lang: '--lang', from: '--from', to: '--to' });
    if (from !== undefined && to !== undefined && from > to) {
      throw new InputError(`--from (${timecode(from)}) must not be after --to (${timecode(to)})`, [{ path: '--from', message: 'must not be after --to' }]);
    }
    const api = await ctx.api();
    let result;
    try {
      result = await withMedia(ctx, args.id, () => api.call('getTranscript', { params: { id: args.id }, query, signal: ctx.signal }));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MEDIA_NOT_READY') {
        let status: string | undefined;
        try {
          status = (await api.call('getMedia', { params: { id: args.id }, query: { after: Number.MAX_SAFE_INTEGER }, signal: ctx.signal })).status;
        } catch {
          status = undefined;
        }
        const { sanitizeLine } = await import('../io/sanitize.js');
        throw new CliError(`the transcript of ${args.id} is not ready yet${status ? ` (it is ${sanitizeLine(status)})` : ''}`, {
          exitCode: error.exitCode,
          code: error.code,
          hint: status === 'failed' ? 'its transcription failed, so there will be none' : `follow it until it is ready: \`${await command(ctx, `media show ${args.id} --follow`)}\`, then ask again`,
          cause: error,
        });
      }
      throw error;
    }
    const { printJson, wantsJson } = await import('../io/output.js');
    if (wantsJson(ctx)) return printJson(ctx, result);
    const { emit } = await import('../io/streams.js');
    if (ctx.io.stdoutIsTTY) {
      const { renderMarkdown } = await import('../io/markdown.js');
      await emit(ctx.io.stdout, await renderMarkdown(ctx, result.markdown));
      return;
    }
    const { sanitize } = await import('../io/sanitize.js');
    const text = sanitize(result.markdown);
    await emit(ctx.io.stdout, text.endsWith('\n') || text === '' ? text : `${text}\n`);
  },
});

export default defineGroup({
  name: 'media',
  summary: 'Transcribe videos and podcasts and read the transcripts',
  description: 'A quote comes first (one price per minute, nothing spent); `start` shows it, asks, and follows the transcription; `show` and `transcript` read it.',
  examples: ['kagent media quote https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'kagent media start https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'kagent media list', 'kagent media transcript md_3k9x0q --from 10:00'],
  commands: [quote, start, list, show, transcript],
});
