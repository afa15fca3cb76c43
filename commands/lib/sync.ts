import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { spaceOption } from '../../src/kit/options.js';
import { spaceIdFor } from '../../src/kit/space.js';
import { reportingRefusal } from '../../src/upload/ci-report.js';
import { syncRun, type SyncOptions } from '../../src/upload/sync-run.js';
import * as S from '../../src/api/shapes.js';
import { fileOptions } from './shared.js';

export default defineCommand({
  name: 'sync',
  summary: 'Make the files of a space that came from a folder match the folder',
  description: [
    'Like `aws s3 sync` for the library: new files are uploaded; a changed file is uploaded and, once the service has it, the item of its earlier version is deleted; unchanged files cost no request. With --delete, the items of files no longer in DIR are deleted too (asked first on a terminal; elsewhere --delete needs --yes). Items of the space that did not come from DIR are never touched.',
    'Which files: a symbolic link is followed only while it stays in DIR; one that leads out (unless --follow-symlinks), leads nowhere or loops is skipped with a warning line, and no file of kagent\'s own config or cache (where the API key is kept) is ever sent, whatever path or link leads there. --exclude and --include (globs, repeatable, the later wins, as in aws s3 sync) leave files out (a pattern without "/" matches a name at any depth, one with "/" the path under DIR), and the items of files left out are not deleted.',
    "Which item came from which file: each file is sent under its own name (the title people see) with the note 'kagent lib sync \"<prefix>\" \"<path>\"' (prefix: DIR's own name, or --prefix), and the service's listing of the space gives every item's note and SHA-256 back. Nothing is kept on this machine. Give each folder synced into a space its own --prefix (for example the repository's name). A renamed file shows its new name once --delete lets its old item go; items named by earlier versions (<prefix>:<path with : between folders>) are renamed once. When the listing does not give notes, the run says so and deletes nothing (uploads still go); without SHA-256 every file is sent and the service tells which are unchanged.",
    "Safe to stop and run again, and to run twice at once: uploads carry `lib upload`'s content-derived Idempotency-Keys, an earlier version is deleted only after its replacement exists, and an item whose bytes are still those of a file in DIR is never deleted. Requests go within the account's rate, shared by every kagent process on the machine.",
    "--dry-run reads the listing (and GET /me for the per-file limit) and sends nothing: it prints the run's lines in the plain tense (upload, replace, delete, keep, unchanged, fail), then the bytes and write requests the run would take at the profile's rate. --max-deletes N refuses a run that would delete more than N items of files no longer in DIR (earlier versions of changed files are replaced apart, not counted): exit 1, nothing sent.",
    'Output, the plan\'s and the run\'s alike (docs/sync.md): on a terminal a line per file that changed and a progress bar (files, bytes, items still to delete); piped "status path item earlier-items|error-code" (status: uploaded, replaced, deleted, unchanged, kept, failed, skipped; unchanged files only with --verbose, so a run that changes nothing prints nothing); --json one object per line with every field, null where it does not apply: {path, name, size, status, item, previous, reason, error, key, sha256}. stderr ends with "N uploaded, N replaced, N deleted, N unchanged, N failed". With GITHUB_ACTIONS set, a table goes to $GITHUB_STEP_SUMMARY and each failure becomes an ::error annotation; --report FILE writes JUnit XML.',
    'Exit status: 0 when DIR and the space match; the most severe failure otherwise (as `lib upload`); 1 when --max-deletes refused the run, or when --delete was asked but the service does not say which items came from DIR; 2 for an empty or missing DIR, or --delete without --yes and no terminal.',
  ].join('\n\n'),
  arguments: [{ name: 'dir', description: 'the folder to sync (hidden files and folders inside it are skipped)' }],
  options: [
    spaceOption("the space to keep in step with DIR (id or name; default: the profile's space)"),
    {
      flags: '--prefix <name>',
      description: "what names DIR's items (default: DIR's own name); one prefix per folder in a space",
    },
    { flags: '--delete', description: 'also delete the items of files no longer in DIR' },
    {
      flags: '--max-deletes <n>',
      description: 'refuse the run (exit 1, nothing sent) when it would delete more than n items of removed files',
      type: 'integer',
      min: 0,
    },
    {
      flags: '-c, --concurrency <n>',
      description: 'files sent at once (1 to 16)',
      type: 'integer',
      min: 1,
      max: 16,
      default: 4,
    },
    { flags: '--fail-fast', description: 'start no new upload after the first failure' },
    { flags: '--report <file>', description: 'also write a JUnit XML report there' },
    { flags: '--dry-run', description: 'print what the run would do (reads only)' },
    { flags: '--verbose', description: 'piped, also list unchanged files (a no-op run prints nothing otherwise)' },
    ...fileOptions,
  ],
  examples: [
    'kagent lib sync docs/ --space Handbook',
    'kagent lib sync docs/ --space Handbook --dry-run',
    '# CI: on every push; removed files go too, but never more than 20 at once',
    'KAGENT_API_KEY=$SECRET kagent lib sync docs --space Handbook --prefix "$GITHUB_REPOSITORY" --delete --yes --max-deletes 20',
  ],
  async run(ctx, opts, args) {
    await reportingRefusal(ctx, 'kagent lib sync', async () => {
      const spaceRef = spaceOf(ctx, opts);
      await syncRun(ctx, opts, args.dir, () => spaceIdFor(ctx, spaceRef));
    });
  },
});

/** The space to sync into, checked before anything is read (exit 2). */
function spaceOf(ctx: Context, opts: SyncOptions): string {
  const spaceRef = opts.space ?? ctx.config.space;
  if (spaceRef === undefined)
    throw new UsageError(
      "sync needs a space: pass --space (or set the profile's: `kagent config set space NAME`)",
      'for example: `kagent lib sync docs/ --space Handbook`',
    );
  checkInput(
    S.Queries.uploadFile,
    { space: spaceRef },
    { space: opts.space !== undefined ? '--space' : "the profile's space" },
  );
  return spaceRef;
}
