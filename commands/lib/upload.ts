import { defineCommand, checkInput } from '../../src/kit/define.js';
import { spaceOption } from '../../src/kit/options.js';
import { spaceIdFor, spaceNameLookup } from '../../src/kit/space.js';
import { reportingRefusal } from '../../src/upload/ci-report.js';
import { uploadRun } from '../../src/upload/upload-run.js';
import type { Target } from '../../src/upload/uploader.js';
import * as S from '../../src/api/shapes.js';
import { fileOptions } from './shared.js';

export default defineCommand({
  name: 'upload',
  summary: 'Upload files: PDF, Word (.docx), Markdown, plain text and images',
  description: [
    "Each file is checked here first (a refused file costs no request), streamed within the account's request rate, and sent with an Idempotency-Key made from its bytes, so running it again never adds a file twice. " +
      'PATHs are files, folders (walked recursively; hidden files and folders inside them are skipped), quoted glob patterns ("docs/**/*.md"), or - for stdin (with --name). A PATH that matches nothing stops the command before anything is sent (exit 2).',
    'Inside a folder, a symbolic link is followed only while it stays in the folder; one that leads out (unless --follow-symlinks), leads nowhere or loops is skipped with a warning line, and no file of kagent\'s own config or cache (where the API key is kept) is ever sent, whatever path or link leads there. --exclude and --include (globs, repeatable, the later wins as in aws s3 sync) leave files out: a pattern without "/" matches a name at any depth, one with "/" the path under the folder; how many were left out is said on stderr. With --fail-fast, files in flight finish. A --report has one test case per file, for GitLab, Jenkins and other CI; --dry-run checks every file and says what would happen (keys, bytes, requests).',
    "Each file is checked first, and a file refused here costs no request: its type by content (not by name alone), empty files, and for a file of 1 MiB or more to be sent, the size against your plan's per-file limit (as `kagent me` shows it; a smaller file over it meets the service's 413). Files are streamed from disk, several at once (--concurrency), within the account's request rate, which kagent processes running in parallel on this machine share.",
    'Re-running is safe: each file carries an Idempotency-Key made from its bytes, its name and the --space/--note/--lang given, so a file the service already has is reported as already there and never added twice; failed requests are retried with the same key. stdin is first saved to a temporary file (the service needs the size up front, and the key comes from the bytes).',
    'Output, one line per file, in the schema `lib sync` shares (docs/sync.md): on a terminal "✓ uploaded PATH → ID (SIZE) in SPACE (SPACE-ID)", the space the service put it in (it picks one when neither --space nor the profile names one); piped, tab-separated "status path item-id error-code" (status: uploaded, exists, failed, skipped: not attempted or cut short by Ctrl-C); with --json one JSON object per line with every field, null where it does not apply: {path, name, size, status, item, previous, reason, error, key, sha256}. A summary goes to stderr, and on a terminal a progress bar.',
    '--dry-run sends no file: it makes every check above, and prints each file as "would upload", "already there" (the library lists an item with the same SHA-256: known only when the service gives items\' SHA-256) or "would fail", then the bytes and upload requests the run would take at the profile\'s rate (`kagent config set rate-limit`, default the contract\'s 60 a minute). It reads GET /me and the library listing. Its lines are the run\'s, the status in the plain tense (upload, exists, fail); the Idempotency-Key each file would carry is in --json (key), and on a terminal with --debug. Its exit status is the one a real run would end with for those checks.',
    'In CI: when GITHUB_ACTIONS is set, a Markdown table of the results is appended to $GITHUB_STEP_SUMMARY and each failed file gets an `::error file=PATH::message` annotation (on stderr); a refusal of the whole run (bad input, credits exhausted) gets one `::error` annotation and a line in the step summary; --report FILE writes a JUnit XML report (one test case per file: a failure for a failed file, skipped for one not attempted).',
    'Exit status: 0 when every file is uploaded or already there; otherwise that of the most severe failure, in this order: 130 interrupted, 3 not authenticated, 7 unavailable, 6 quota (402, 413), 1 other, 5 conflict, 4 not found, 2 refused (unsupported type, empty file, invalid input).',
  ].join('\n\n'),
  arguments: [{ name: 'paths', description: 'files, folders, glob patterns, or - for stdin', variadic: true }],
  options: [
    spaceOption(
      "the space to put them in (id or name; default: the profile's space, else the agent picks one per file)",
    ),
    { flags: '--note <text>', description: 'a note on every file (at most 2000 characters)' },
    { flags: '--name <name>', description: 'the file name to give stdin (or a single file)' },
    {
      flags: '-c, --concurrency <n>',
      description: 'files sent at once (1 to 16)',
      type: 'integer',
      min: 1,
      max: 16,
      default: 4,
    },
    { flags: '--fail-fast', description: 'start no new file after the first failure' },
    {
      flags: '--report <file>',
      description: 'also write a JUnit XML report there (one case a file)',
    },
    {
      flags: '--dry-run',
      description: 'say what would be sent and why, sending nothing',
    },
    ...fileOptions,
  ],
  examples: [
    'kagent lib upload report.pdf notes.md',
    'kagent lib upload docs/ --space Research',
    '# quote patterns: kagent expands them the same way in every shell',
    'kagent lib upload \'build/reports/**/*.pdf\' --note "nightly $(date +%F)" --json > uploads.ndjson',
    'curl -s https://example.com/notes.md | kagent lib upload - --name notes.md',
    '# CI: safe to re-run; fails (non-zero) if any file failed',
    'KAGENT_API_KEY=$SECRET kagent lib upload dist/docs --fail-fast',
    'kagent lib upload dist/docs --dry-run --report upload-report.xml',
    "kagent lib upload docs/ --exclude 'drafts/**' --exclude '*.tmp'",
  ],
  async run(ctx, opts, args) {
    // A refusal of the whole run (credits exhausted included) is also said where CI shows it, as lib sync does.
    await reportingRefusal(ctx, 'kagent lib upload', async () => {
      const target: Target = {};
      if (opts.note !== undefined) target.note = opts.note;
      if (ctx.config.lang) target.lang = ctx.config.lang;
      // --space, else the profile's default space (`kagent config set space ...`), else the agent picks per file.
      const ref = opts.space ?? ctx.config.space;
      checkInput(
        S.Queries.uploadFile,
        { ...target, ...(ref !== undefined ? { space: ref } : {}) },
        { space: opts.space !== undefined ? '--space' : "the profile's space", note: '--note', lang: '--lang' },
      );
      // Which space each file landed in (the service picks one without --space): its name from one lookup.
      const spaces = { ref, id: (r: string) => spaceIdFor(ctx, r), name: spaceNameLookup(ctx) };
      await uploadRun(ctx, opts, args.paths, target, spaces);
    });
  },
});
