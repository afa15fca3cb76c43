// Media routes: quote, start, list, a media page and its transcript. Starting a
// transcription and its progress on the sandbox clock are in ../media/model.ts;
// a media item as read back (page, transcript) in ../media/pages.ts.
import type * as S from '../../api/shapes.js';
import { mediaList, mediaStep, quote, startMediaFor } from '../media/model.js';
import { findMedia, mediaItemView, mediaPage, readyMedia, transcript } from '../media/pages.js';
import { newestFirst } from '../order.js';
import { HttpFail, type Jobs, type Routes } from '../types.js';
import { page } from '../world.js';

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
    return { body: mediaPage(world, media, lang, query.after) };
  },

  getTranscript: ({ world, account, params, query }) => {
    const media = readyMedia(account, params.id ?? '');
    const lang: S.Locale = query.lang ?? media.lang;
    const from: number = query.from ?? 0;
    const to: number = query.to ?? media.durationSec;
    if (from > to) {
      throw new HttpFail(400, 'INVALID_INPUT', 'Invalid input: from must not be after to', {
        issues: [{ path: 'from', message: 'must be at most `to`' }],
      });
    }
    return { body: transcript(world, media, lang, from, to) };
  },
};

export const jobs: Jobs = { 'media.step': mediaStep };
