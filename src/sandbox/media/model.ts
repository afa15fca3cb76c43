// Media: video and podcast links become timestamped transcripts and summaries.
// quoteMedia gives a deterministic duration and price (1 credit per started
// minute); startMedia charges it up front and starts a `transcription` task:
//   +2 s   queued → transcribing
//   every 5 s a new revision of segments (30 s of media each) arrives: 3 to 8
//   revisions (one per started 10 minutes of media, at least 3)
//   then summarizing, and 5 s later ready with summary and chapters
// so a link is ready 22 to 47 s after it was started.
// Triggers for tests and scripts: a URL containing "unavailable" answers 503
// MEDIA_UNAVAILABLE; one containing "broken" fails after its first revision
// (task failed, untranscribed minutes refunded). Cancelling refunds the minutes not transcribed.
// The routes are in routes/media.ts.
import type * as S from '../../api/shapes.js';
import { int } from '../watches/content.js';
import { chapters, clock, mediaKind, mediaSummary, mediaTitle, segmentText, type MediaKind } from './text.js';
import {
  cancelHooks,
  completeMilestone,
  createTask,
  findTask,
  finishTask,
  isActive,
  startMilestone,
} from '../tasks/model.js';
import { HttpFail, type Account, type LibraryRecord, type MediaRecord, type ScheduledEvent } from '../types.js';
import type { World } from '../world.js';

export const PRICE_PER_MINUTE = 1;
export const SEGMENT_SEC = 30;
export const REVISION_EVERY_MS = 5_000;
export const START_DELAY_MS = 2_000;
export const SUMMARY_MS = 5_000;

export type MediaRec = MediaRecord & { _seed: number; _revisions: number; _minutes: number; _libraryId: string | null };

export function mediaList(account: Account): MediaRec[] {
  return account.media as MediaRec[];
}

/** Duration and price of a link, or 400 UNSUPPORTED_MEDIA / 503 MEDIA_UNAVAILABLE. */
export function quote(world: World, url: string, lang: S.Locale): S.MediaQuote & { kind: MediaKind } {
  if (/unavailable/i.test(url))
    throw new HttpFail(
      503,
      'MEDIA_UNAVAILABLE',
      'Transcription is temporarily unavailable for this link; try again later',
      {},
      { 'retry-after': '30' },
    );
  const kind = mediaKind(url);
  if (!kind) {
    throw new HttpFail(
      400,
      'UNSUPPORTED_MEDIA',
      'This link cannot be transcribed: use a video page (YouTube, Vimeo, Bilibili), a podcast episode or an audio/video file link',
    );
  }
  const rng = world.rng(`media:${url}`);
  const durationSec = int(rng, 180, 5400);
  const minutes = Math.ceil(durationSec / 60);
  return {
    url,
    title: mediaTitle(world.rng(`media-title:${url}`), url, lang),
    kind,
    durationSec,
    minutes,
    pricePerMinute: PRICE_PER_MINUTE,
    credits: minutes * PRICE_PER_MINUTE,
  };
}

function revisionCount(durationSec: number): number {
  return Math.min(8, Math.max(3, Math.ceil(durationSec / 600)));
}

function segmentCount(durationSec: number): number {
  return Math.ceil(durationSec / SEGMENT_SEC);
}

/** startMedia's work, shared with the agent. Throws 400/402/404/503. */
export function startMediaFor(
  world: World,
  account: Account,
  input: S.StartMediaRequest,
): { started: S.MediaStarted; media: MediaRec } {
  const lang = input.lang ?? account.lang;
  const q = quote(world, input.url, lang);
  const space = input.spaceId ? world.space(account, input.spaceId) : world.defaultSpace(account);
  world.spend(account, q.credits, `transcribing ${q.minutes} minutes`);
  const zh = lang === 'zh';
  const task = createTask(world, account, {
    kind: 'transcription',
    title: zh ? `转写：${q.title}` : `Transcribe: ${q.title}`,
    spaceId: space.id,
    milestones: [
      { kind: 'plan', title: zh ? '获取媒体' : 'Fetching the media' },
      { kind: 'step', title: zh ? '转写' : 'Transcribing' },
      { kind: 'step', title: zh ? '总结' : 'Summarizing' },
      { kind: 'output', title: zh ? '摘要和章节' : 'Summary and chapters' },
    ],
  });
  const now = world.iso();
  const media: MediaRec = {
    id: world.id('md'),
    title: q.title,
    url: input.url,
    kind: q.kind,
    status: 'queued',
    lang,
    durationSec: q.durationSec,
    revision: 0,
    taskId: task.id,
    summary: null,
    chapters: [],
    createdAt: now,
    spaceId: space.id,
    _segments: [],
    _credits: q.credits,
    _seed: int(world.rng(`media-seed:${input.url}`), 0, 1_000_000),
    _revisions: revisionCount(q.durationSec),
    _minutes: q.minutes,
    _libraryId: null,
  };
  const item: LibraryRecord = {
    id: world.id('li'),
    kind: 'media',
    title: q.title,
    url: input.url,
    note: null,
    spaceId: space.id,
    status: 'processing',
    summary: null,
    keyPoints: [],
    fileName: null,
    mime: null,
    size: null,
    sha256: null,
    entryId: null,
    mediaId: media.id,
    createdAt: now,
    updatedAt: now,
  };
  media._libraryId = item.id;
  account.library.push(item);
  account.media.push(media);
  task.result = { kind: 'media', id: media.id, href: `/media/${media.id}` };
  world.schedule(world.now() + START_DELAY_MS, 'media.step', account.id, {
    taskId: task.id,
    mediaId: media.id,
    revision: 0,
  });
  return { started: { mediaId: media.id, taskId: task.id, credits: q.credits }, media };
}

function libraryItem(account: Account, media: MediaRec): LibraryRecord | undefined {
  return account.library.find((i) => i.id === media._libraryId);
}

/** revision 0: start transcribing; 1..R: segments of that revision; R+1: ready. */
export function mediaStep(world: World, event: ScheduledEvent): void {
  const account = world.state.accounts[event.accountId ?? ''];
  const { taskId, mediaId, revision } = event.data as { taskId: string; mediaId: string; revision: number };
  const media = account ? mediaList(account).find((m) => m.id === mediaId) : undefined;
  const task = account ? findTask(account, taskId) : undefined;
  if (!account || !media || !task || !isActive(task)) return;
  const zh = media.lang === 'zh';
  const R = media._revisions;
  const next = (rev: number, delay: number) =>
    world.schedule(world.now() + delay, 'media.step', account.id, { taskId, mediaId, revision: rev });

  if (revision === 0) {
    media.status = 'transcribing';
    completeMilestone(world, task, 0, { detail: `${media.kind}, ${clock(media.durationSec)}` });
    startMilestone(world, task, 1);
    next(1, REVISION_EVERY_MS);
    return;
  }
  if (revision <= R) {
    const total = segmentCount(media.durationSec);
    const from = Math.floor(((revision - 1) * total) / R);
    const to = Math.floor((revision * total) / R);
    for (let j = from; j < to; j++) {
      media._segments.push({
        start: j * SEGMENT_SEC,
        end: Math.min(media.durationSec, (j + 1) * SEGMENT_SEC),
        text: segmentText(media._seed, j, media.lang),
        revision,
      });
    }
    media.revision = revision;
    const done = media._segments[media._segments.length - 1]?.end ?? 0;
    const m1 = task.milestones[1];
    if (m1)
      m1.detail = zh
        ? `已转写 ${clock(done)} / ${clock(media.durationSec)}`
        : `${clock(done)} of ${clock(media.durationSec)} transcribed`;
    if (/broken/i.test(media.url) && revision === 1) {
      media.status = 'failed';
      refund(world, account, media);
      const item = libraryItem(account, media);
      if (item) item.status = 'failed';
      finishTask(world, account, task, 'failed', {
        body: zh
          ? '无法读取媒体的其余部分；未转写的分钟已退还。'
          : 'The rest of the media could not be read; the minutes not transcribed were refunded.',
      });
      return;
    }
    if (revision < R) {
      next(revision + 1, REVISION_EVERY_MS);
      return;
    }
    media.status = 'summarizing';
    completeMilestone(world, task, 1);
    startMilestone(world, task, 2);
    next(R + 1, SUMMARY_MS);
    return;
  }
  media.status = 'ready';
  media.summary = mediaSummary(media.title, media.durationSec, media.lang);
  media.chapters = chapters(media.durationSec, media.lang);
  completeMilestone(world, task, 2);
  startMilestone(world, task, 3);
  completeMilestone(world, task, 3, {
    detail: zh ? `${media.chapters.length} 个章节` : `${media.chapters.length} chapters`,
  });
  const item = libraryItem(account, media);
  if (item) {
    item.status = 'ready';
    item.summary = media.summary;
    item.keyPoints = media.chapters.map((c) => `${clock(c.start)} ${c.title}`);
    item.updatedAt = world.iso();
  }
  finishTask(world, account, task, 'done', {
    result: { kind: 'media', id: media.id, href: `/media/${media.id}` },
    body: media.summary,
  });
}

/** Gives back the credits of the minutes not transcribed. */
function refund(world: World, account: Account, media: MediaRec): void {
  const done = media._segments[media._segments.length - 1]?.end ?? 0;
  const minutesDone = Math.ceil(done / 60);
  const back = Math.max(0, media._minutes - minutesDone) * PRICE_PER_MINUTE;
  if (back <= 0) return;
  const pool = account.credits[0];
  if (pool) pool.remaining = Math.round((pool.remaining + back) * 100) / 100;
  media._credits -= back;
  world.changed();
}

cancelHooks.transcription = (world, account, task) => {
  const media = mediaList(account).find((m) => m.taskId === task.id);
  if (!media || media.status === 'ready' || media.status === 'failed') return;
  media.status = 'failed';
  refund(world, account, media);
  const item = libraryItem(account, media);
  if (item) item.status = 'failed';
};
