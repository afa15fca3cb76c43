// How to find the right id when the service answered 404 for the one given:
// one sentence per kind of thing, for every command and view that takes an id.
import type { Context } from '../context.js';
import { ApiError } from '../errors.js';
import { kagentCommand } from './command-line.js';

type Cmd = (words: string) => string;

/** What a 404 on each kind of thing says about finding the right id. */
const NOT_FOUND = {
  doc: (id: string, c: Cmd) => `no doc "${id}": ${c('doc list')} or ${c('doc search WORDS')} shows the ids`,
  item: (id: string, c: Cmd) => `no library item "${id}": ${c('lib list')} or ${c('lib search WORDS')} shows the ids`,
  media: (id: string, c: Cmd) => `no media "${id}": ${c('media list')} shows the ids`,
  conversation: (id: string, c: Cmd) => `no conversation "${id}": ${c('conversation list')} shows yours`,
  action: (id: string, c: Cmd) => `no action "${id}": ${c('actions list')} shows the ones waiting for you`,
  task: (id: string, c: Cmd) => `no task "${id}": ${c('task list')} shows your tasks`,
  watch: (slug: string, c: Cmd) =>
    `no watch "${slug}" that you can see: ${c('watch list')} shows the ones you follow, ${c('watch search TOPIC')} finds public ones`,
  entry: (id: string, c: Cmd) =>
    `no entry "${id}" you can see: entry ids are shown by ${c('watch show SLUG')} (or --jq '.brief.entries[].id')`,
} as const;

export type Findable = keyof typeof NOT_FOUND;

/** 404 codes that say something else than "no such thing" (a watch without a brief on that date). */
const NOT_ABOUT_THE_ID = new Set(['BRIEF_NOT_FOUND']);

/** A 404 about `id` gets the hint of its kind (unless it has one); anything else passes through. */
export function notFoundHint(ctx: Pick<Context, 'flags'>, error: unknown, kind: Findable, id: string): unknown {
  if (error instanceof ApiError && error.status === 404 && !error.hint && !NOT_ABOUT_THE_ID.has(error.code)) {
    error.hint = NOT_FOUND[kind](id, (words) => `\`${kagentCommand(ctx, words)}\``);
  }
  return error;
}

/** Runs `work`; a 404 it throws says how to find the right id of `kind`. */
export async function withNotFound<T>(
  ctx: Pick<Context, 'flags'>,
  kind: Findable,
  id: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw notFoundHint(ctx, error, kind, id);
  }
}
