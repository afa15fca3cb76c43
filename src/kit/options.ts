// The options several commands share, declared once: the flag, its parsing and
// bounds, and the check that goes with it. Each command still says in its own
// words what the option means for it (the description).
import { UsageError } from '../errors.js';

/** `--space <space>`: a space by id or name (see resolveSpace). */
export function spaceOption<const D extends string>(description: D) {
  return { flags: '--space <space>', description, complete: 'space' } as const;
}

/**
 * `--idempotency-key <key>`: checked with checkIdempotencyKey before anything is sent; a
 * replayed answer is said with noteReplay (./idempotency-key.ts). `rerun` says what a
 * rerun with the same key gets; `step` names this step in the example key a script
 * should pass ("$GITHUB_RUN_ID-space"). Without the flag each run sends a fresh key.
 */
export function idempotencyKeyOption<const D extends string>(rerun: D, step: string) {
  return {
    flags: '--idempotency-key <key>',
    description:
      `a key for this request (1 to 200 characters): ${rerun}; the same key with other values is refused (exit 2). ` +
      `Without it every run sends a fresh key, so a script that reruns after a timeout should pass one of its own, stable across reruns of the same job, ` +
      `e.g. --idempotency-key "$GITHUB_RUN_ID-${step}"`,
  } as const;
}

/**
 * `-L, --limit <n>` and `--all` of a list that follows cursors: `every` names
 * what --all fetches ("every document"), `firstPage` the service's page size
 * when it is known.
 */
export function pageOptions(every: string, firstPage?: number) {
  return [
    {
      flags: '-L, --limit <n>',
      description: `at most this many (default: the first page${firstPage ? `, ${firstPage}` : ''}; a terminal notes when more are left)`,
      type: 'integer',
      min: 1,
    },
    { flags: '--all', description: `${every}, following every page` },
  ] as const;
}

/** --limit and --all as paginate() takes them; both at once is a usage error. */
export function paging(opts: { limit?: number; all?: boolean }): { limit?: number; all?: boolean } {
  if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
  return { limit: opts.limit, all: opts.all };
}

/** A request's fields as the command line gave them: those left undefined (a flag not given) are not sent. */
export function fieldsGiven(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
