// A media item as read back: its list entry, its page (segments so far, summary and
// chapters once ready) and its transcript as Markdown, each in the language asked
// for; a segment or title in another language than the media's is generated from
// the same seed.
import type * as S from '../../api/shapes.js';
import { HttpFail, type Account } from '../types.js';
import { notFound, type World } from '../world.js';
import { mediaList, SEGMENT_SEC, type MediaRec } from './model.js';
import { chapters, clock, mediaSummary, mediaTitle, segmentText, timestampLink } from './text.js';

export function findMedia(account: Account, id: string): MediaRec {
  const media = mediaList(account).find((m) => m.id === id);
  if (!media) throw notFound('MEDIA_NOT_FOUND', `Media ${id}`);
  return media;
}

/** A media item whose transcript is ready; 400 MEDIA_NOT_READY before. */
export function readyMedia(account: Account, id: string): MediaRec {
  const media = findMedia(account, id);
  if (media.status !== 'ready')
    throw new HttpFail(
      400,
      'MEDIA_NOT_READY',
      `The transcript is not ready yet (status ${media.status}); poll GET /media/${media.id}`,
    );
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

/** The media page in `lang`, with the segments of revisions after `after` (all when it is left out). */
export function mediaPage(world: World, media: MediaRec, lang: S.Locale, after: number | undefined): S.MediaPage {
  const segments = segmentsIn(media, lang).filter((s) => after === undefined || s.revision > after);
  return {
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
}

/** The transcript from `from` to `to` seconds in `lang`: a summary, then one timestamped line a segment. */
export function transcript(world: World, media: MediaRec, lang: S.Locale, from: number, to: number): S.Transcript {
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
  return { id: media.id, title, lang, from, to, markdown };
}
