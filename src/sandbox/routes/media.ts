// Media routes: quote, start, list, a media page and its transcript. Starting a
// transcription and its progress on the sandbox clock are in ../media/model.ts.
import type * as S from '../../api/shapes.js';
import { chapters, clock, mediaSummary, mediaTitle, segmentText, timestampLink } from '../media/text.js';
import { newestFirst } from '../order.js';
import { mediaList, mediaStep, quote, SEGMENT_SEC, startMediaFor, type MediaRec } from '../media/model.js';
import { HttpFail, type Account, type Jobs, type Routes } from '../types.js';
import { notFound, page, type World } from '../world.js';

function findMedia(account: Account, id: string): MediaRec {
  const media = mediaList(account).find((m) => m.id === id);
  if (!media) throw notFound('MEDIA_NOT_FOUND', `Media ${id}`);
  return media;
}

function segmentsIn(media: MediaRec, lang: S.Locale): S.Segment[] {
  return media._segments.map((s, j) => ({
    ...s,
    text: lang === media.lang ? s.text : segmentText(media._seed, Math.round(s.start / SEGMENT_SEC) || j, lang),
  }));
}

function titleIn(world: World, media: MediaRec, lang: S.Locale): string {
  return lang === media.lang ? media.title : mediaTitle(world.rng(`media-title:${media.url}`), media.url, lang);
}

export function mediaItemView(media: MediaRec): S.MediaItem {
  return {
    id: media.id,
    title: media.title,
    url: media.url,
    kind: media.kind,
    status: media.status,
    durationSec: media.durationSec,
    spaceId: media.spaceId,
    createdAt: media.createdAt,
  };
}

export const routes: Routes = {
  quoteMedia: ({ world, account, body }) => ({ body: quote(world, (body as S.QuoteMediaRequest).url, account.lang) }),

  startMedia: ({ world, account, body }) => ({
    status: 202,
    body: startMediaFor(world, account, body as S.StartMediaRequest).started,
  }),

  listMedia: ({ account, query }) => {
    let items = newestFirst(mediaList(account));
    if (query.space !== undefined) {
      const named = account.spaces.find((s) => s.name === query.space);
      items = items.filter((m) => m.spaceId === query.space || (named !== undefined && m.spaceId === named.id));
    }
    const result = page(items, query, `media:${account.id}:${query.space ?? ''}`, 50);
    return { body: { items: result.items.map(mediaItemView), nextCursor: result.nextCursor } };
  },

  getMedia: ({ world, account, params, query }) => {
    const media = findMedia(account, params.id ?? '');
    const lang: S.Locale = query.lang ?? media.lang;
    const after: number | undefined = query.after;
    const segments = segmentsIn(media, lang).filter((s) => after === undefined || s.revision > after);
    const body: S.MediaPage = {
      id: media.id,
      title: titleIn(world, media, lang),
      url: media.url,
      kind: media.kind,
      status: media.status,
      lang,
      durationSec: media.durationSec,
      revision: media.revision,
      taskId: media.taskId,
      summary: media.summary === null ? null : mediaSummary(titleIn(world, media, lang), media.durationSec, lang),
      chapters: media.status === 'ready' ? chapters(media.durationSec, lang) : [],
      segments,
      createdAt: media.createdAt,
    };
    return { body };
  },

  getTranscript: ({ world, account, params, query }) => {
    const media = findMedia(account, params.id ?? '');
    if (media.status !== 'ready')
      throw new HttpFail(
        400,
        'MEDIA_NOT_READY',
        `The transcript is not ready yet (status ${media.status}); poll GET /media/${media.id}`,
      );
    const lang: S.Locale = query.lang ?? media.lang;
    const from: number = query.from ?? 0;
    const to: number = query.to ?? media.durationSec;
    if (from > to) {
      throw new HttpFail(400, 'INVALID_INPUT', 'Invalid input: from must not be after to', {
        issues: [{ path: 'from', message: 'must be at most `to`' }],
      });
    }
    const title = titleIn(world, media, lang);
    const zh = lang === 'zh';
    const lines = segmentsIn(media, lang)
      .filter((s) => s.end > from && s.start < to)
      .map((s) => `[${clock(s.start)}](${timestampLink(media.url, s.start)}) ${s.text}`);
    const ranged = from > 0 || to < media.durationSec;
    const markdown = [
      `# ${title}`,
      '',
      `## ${zh ? '摘要' : 'Summary'}`,
      '',
      mediaSummary(title, media.durationSec, lang),
      '',
      `## ${zh ? '文字稿' : 'Transcript'}${ranged ? ` (${clock(from)}–${clock(Math.min(to, media.durationSec))})` : ''}`,
      '',
      ...lines.flatMap((l) => [l, '']),
    ].join('\n');
    const body: S.Transcript = { id: media.id, title, lang, from, to, markdown };
    return { body };
  },
};

export const jobs: Jobs = { 'media.step': mediaStep };
