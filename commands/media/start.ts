import type { MediaStarted } from '../../src/api/shapes.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { idempotencyKeyOption, spaceOption, fieldsGiven } from '../../src/kit/options.js';
import { checkIdempotencyKey, noteReplay } from '../../src/kit/idempotency-key.js';
import { checkUrl, getQuote, creditsLeft, explainMediaError, followHint, finishFollowing } from './shared.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { resolveSpace } from '../../src/kit/space.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { note } from '../../src/io/output.js';
import { printDone } from '../../src/io/outcome.js';
import { checkCreated } from '../../src/kit/created.js';
import { followMedia } from '../../src/follow/media.js';
import { timecode } from '../../src/views/media.js';
import { checkBudget } from '../../src/kit/credit-budget.js';
import * as S from '../../src/api/shapes.js';
import { UsageError } from '../../src/errors.js';
import { startSeveral } from './batch.js';

export default defineCommand({
  name: 'start',
  summary: 'Transcribe a video or podcast: see the cost, confirm, then read it as it arrives',
  description: [
    'Asks for a quote first and shows the cost; spending credits needs a yes: on a terminal kagent asks, elsewhere pass --yes (without it: exit 2, nothing spent). ' +
      '--max-credits N is a yes with a cap: the quote is checked against N and against the credits left (from `kagent me`) before anything is spent, and a higher cost is refused (exit 6); no question is asked. ' +
      'Then follows the transcription until it is ready: segments are printed as they arrive ("[h:mm:ss] text", one line each), then the summary and the chapters. ' +
      'With --json, prints the finished MediaPage (or MediaStarted with --no-wait).',
    'Ctrl-C stops following (exit 130) and --timeout stops waiting (exit 8); the transcription goes on, and `kagent media show ID --follow` picks it up again. ' +
      'Not enough credits is CREDITS_EXHAUSTED (exit 6); transcription being unavailable is MEDIA_UNAVAILABLE (exit 7).',
    'Several links: all are quoted first and one yes (or --max-credits) covers the total; they are started one after the other and not followed (piped: "media-id task-id url" a line; --json an array of MediaStarted). The first CREDITS_EXHAUSTED starts no further link: exit 6, with the links not attempted and the credits left in the hint.',
  ].join('\n\n'),
  arguments: [{ name: 'urls', description: 'video pages, podcast episodes or audio/video file links', variadic: true }],
  options: [
    spaceOption("the space to save it in (id or name; default: the profile's space, else your default space)"),
    { flags: '--no-wait', description: 'return at once with the media and task ids' },
    {
      flags: '--max-credits <n>',
      description:
        'spend at most this many credits: refuse (exit 6, nothing spent) when the quote is higher or more than is left; no confirmation needed',
      type: 'integer',
      min: 0,
    },
    idempotencyKeyOption('a rerun within 24 h returns the first start instead of paying twice', 'media'),
  ],
  examples: [
    'kagent media start https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'kagent media start https://example.com/episode.mp3 --yes > episode.txt',
    'kagent media start URL --yes --no-wait --json | jq -r .mediaId',
    'kagent media start URL --yes --timeout 60 || kagent media show MEDIA_ID --follow',
    'kagent media start URL --max-credits 30 --no-wait --json',
  ],
  async run(ctx, opts, args) {
    const [url, ...more] = args.urls;
    if (url === undefined) throw new UsageError('give a link to transcribe');
    const spaceRef = opts.space ?? ctx.config.space;
    const body = fieldsGiven({ url, lang: ctx.config.lang, spaceId: spaceRef });
    checkInput(S.StartMediaRequest, body, {
      url: 'URL',
      lang: '--lang',
      spaceId: opts.space !== undefined ? '--space' : "the profile's space",
    });
    checkUrl(url);
    await checkIdempotencyKey(opts.idempotencyKey);
    // Costly: refuse early, before any request, when nobody can say yes.
    if (!ctx.flags.yes && opts.maxCredits === undefined && !ctx.io.canPrompt) {
      await confirmOrYes(ctx, { message: '', action: `spend credits transcribing ${url}` });
    }
    if (spaceRef !== undefined) {
      body.spaceId = (await resolveSpace(ctx, spaceRef)).id;
    }
    if (more.length > 0) return startSeveral(ctx, args.urls, body, opts);

    const q = await getQuote(ctx, url);
    const what = `"${sanitizeLine(q.title)}" (${q.kind}, ${timecode(q.durationSec)}, ${q.minutes} minute${q.minutes === 1 ? '' : 's'})`;
    await note(ctx, `Transcribing ${what} costs ${q.credits} credits (${q.pricePerMinute} per minute).`);
    if (opts.maxCredits !== undefined) {
      await checkBudget(ctx, { cost: q.credits, max: opts.maxCredits, what: `transcribing ${sanitizeLine(url)}` });
    } else if (!ctx.flags.yes) {
      const left = await creditsLeft(ctx);
      await confirmOrYes(ctx, {
        message: `Spend ${q.credits} credits to transcribe ${what}?${left !== undefined ? ` You have ${left}.` : ''}`,
        action: `spend ${q.credits} credits transcribing ${url}`,
      });
    }

    const api = await ctx.api();
    let started: MediaStarted;
    let answer: { replayed: boolean; unanswered: number };
    try {
      const result = await api.callFull('startMedia', {
        body,
        idempotencyKey: opts.idempotencyKey,
        signal: ctx.signal,
      });
      started = result.body;
      answer = result;
    } catch (error) {
      throw await explainMediaError(ctx, error, url, q);
    }
    checkCreated(ctx, 'transcription', { mediaId: started.mediaId, taskId: started.taskId }, 'media list');
    await noteReplay(ctx, answer, opts.idempotencyKey, `started ${started.mediaId}`, 'nothing new was charged');

    const show = suggest(ctx, 'media show', started.mediaId);
    if (!opts.wait) {
      await printDone(ctx, started, {
        said: `Started ${started.mediaId} (task ${started.taskId}) for ${started.credits} credits`,
        piped: (s) => `${s.mediaId}\t${s.taskId}`,
        note: `follow it: ${show} --follow`,
      });
      return;
    }
    await note(
      ctx,
      `Started ${started.mediaId} for ${started.credits} credits (Ctrl-C stops following; the transcription goes on)`,
    );
    const last = await followMedia(ctx, started.mediaId, { resumeHint: await followHint(ctx, started.mediaId) });
    await finishFollowing(ctx, last);
  },
});
