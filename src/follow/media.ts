// Following a media item while it is transcribed (`media start`, `media show
// --follow`): the shared poller (src/http/poll.ts) with the task follower's
// budget (TASK_POLL); each look asks getMedia for the segments `after` the
// revision already shown, so each segment travels once. --timeout → exit 8 and
// Ctrl-C → exit 130, both with the command that picks the media up again. What
// is printed is src/views/media.ts.
import type { Context } from '../context.js';
import type { MediaPage } from '../api/shapes.js';
import { poll } from '../http/poll.js';
import { createMediaView, isMediaActive } from '../views/media.js';
import { TASK_POLL } from './task.js';
import { timeoutMs } from '../http/deadline.js';

type FollowContext = Pick<Context, 'io' | 'flags' | 'config' | 'api' | 'clock' | 'serviceClock' | 'signal'>;

export interface FollowMediaOptions {
  /** How to pick the media up again after --timeout or Ctrl-C. */
  resumeHint: string;
  /** Overrides --timeout. */
  timeoutMs?: number;
}

/**
 * Follows a media item until it is no longer queued, transcribing or
 * summarizing, printing segments as they arrive (see src/views/media.ts), and
 * returns the last page read (which holds the summary and chapters once ready,
 * but only the segments of the last look). Throws StillRunningError (exit 8) on
 * --timeout and InterruptedError (exit 130) on Ctrl-C, with `resumeHint`.
 */
export async function followMedia(ctx: FollowContext, id: string, options: FollowMediaOptions): Promise<MediaPage> {
  const api = await ctx.api();
  const view = await createMediaView(ctx, { follow: true });
  let after: number | undefined;
  try {
    const last = await poll<MediaPage>({
      fetch: (signal) => api.call('getMedia', { params: { id }, query: { lang: ctx.config.lang, after }, signal }),
      isDone: (page) => !isMediaActive(page.status),
      // Timestamps and repeated segments are not news; a revision, a status, a summary are.
      fingerprint: (page) =>
        JSON.stringify([page.status, page.revision, page.summary !== null, (page.chapters ?? []).length, page.title]),
      onUpdate: (page) => {
        if (typeof page.revision === 'number') after = page.revision;
        view.update(page);
      },
      timeoutMs: options.timeoutMs ?? timeoutMs(ctx.flags),
      signal: ctx.signal,
      clock: ctx.clock,
      ...TASK_POLL,
      resumeHint: options.resumeHint,
      work: 'the transcription',
    });
    await view.finish(last);
    return last;
  } catch (error) {
    await view.abandon();
    throw error;
  }
}
