// The one output of `lib upload` and `lib sync`, their plan (--dry-run) and their run alike: a line
// per file (or per item whose file is gone), printed as it is known, by one printer.
//
//   --json          one object per line (NDJSON) with every field of FIELDS, null when it does not apply
//   --jq            the filter applied to that object
//   terminal        "✓ uploaded docs/a.md → li_… (4 B)", "+ would upload …", coloured; unchanged files
//                   and files not attempted only in the count line
//   piped           status<TAB>path<TAB>item id<TAB>earlier item ids (comma-separated) or error code
//                   (unchanged files only with --verbose); a failure's message also on stderr as "error: …"
//
// The status is a verb: plain in a plan (upload, replace, delete, keep, fail), past in a run (uploaded,
// replaced, deleted, kept, failed); exists and unchanged read the same in both, skipped only happens in a run.
import type { Context } from '../context.js';
import type { Formatter } from '../io/format.js';
import { formatBytes } from '../io/bytes.js';
import { runJq } from '../io/jq.js';
import { aboveLive } from '../io/live-line.js';
import { getFormatter, wantsJson } from '../io/output.js';
import { escapeJsonControls, sanitizeLine } from '../io/sanitize.js';
import { emit } from '../io/streams.js';
import { wrapText } from '../io/width.js';

export type PlanStatus = 'upload' | 'exists' | 'replace' | 'delete' | 'keep' | 'unchanged' | 'fail';
export type RunStatus = 'uploaded' | 'exists' | 'replaced' | 'deleted' | 'kept' | 'unchanged' | 'failed' | 'skipped';

/** One line of the output. */
export interface ReportLine {
  /** As given on the command line (upload), or under DIR with / between folders (sync). */
  path: string;
  /** The file name the library shows. */
  name: string;
  size: number;
  status: PlanStatus | RunStatus;
  /** The item that holds the file (or, deleted or kept, whose file is gone). */
  item?: { id: string };
  /** Items of earlier versions: deleted (replaced), or to delete (replace). */
  previous?: string[];
  /** Why an item stays (keep, kept), or why a replacement sends nothing. */
  reason?: string;
  /** The code and message; the HTTP status and a hint when there are. */
  error?: { code: string; message: string; status?: number; hint?: string };
  /** The Idempotency-Key the upload would carry (a plan of `lib upload`: a run's may change, see docs/sync.md). */
  key?: string;
  /** The SHA-256 of the file's bytes, when read or said by the service. */
  sha256?: string;
}

/** Every line's fields, in order: --json gives all of them, plan and run alike. */
export const FIELDS = [
  'path',
  'name',
  'size',
  'status',
  'item',
  'previous',
  'reason',
  'error',
  'key',
  'sha256',
] as const;

/** The JSON object of a line: every field, null where it does not apply. */
export function jsonOf(line: ReportLine): Record<(typeof FIELDS)[number], unknown> {
  const sha256 = line.sha256 ?? (line.item as { sha256?: unknown } | undefined)?.sha256;
  return {
    path: line.path,
    name: line.name,
    size: line.size,
    status: line.status,
    item: line.item ?? null,
    previous: line.previous && line.previous.length > 0 ? line.previous : null,
    reason: line.reason ?? null,
    error: line.error ?? null,
    key: line.key ?? null,
    sha256: typeof sha256 === 'string' ? sha256 : null,
  };
}

/** The piped line: status, path, item, earlier items or error code. */
export function tsvOf(line: ReportLine): string {
  const detail = line.error?.code ?? (line.previous ?? []).join(',');
  return `${[line.status, line.path, line.item?.id ?? '', detail].map(sanitizeLine).join('\t')}\n`;
}

type Look = [mark: string, paint: 'green' | 'cyan' | 'red' | 'yellow', words: string];

/** How each status reads on a terminal; unchanged and skipped are only counted. */
const LOOKS: Partial<Record<ReportLine['status'], Look>> = {
  upload: ['+', 'green', 'would upload'],
  uploaded: ['✓', 'green', 'uploaded'],
  exists: ['=', 'cyan', 'already there'],
  replace: ['↻', 'green', 'would replace'],
  replaced: ['↻', 'green', 'replaced'],
  delete: ['-', 'red', 'would delete'],
  deleted: ['-', 'red', 'deleted'],
  keep: ['!', 'yellow', 'would keep'],
  kept: ['!', 'yellow', 'kept'],
  fail: ['✗', 'red', 'would fail'],
  failed: ['✗', 'red', 'failed'],
};

/** What follows the path on a terminal. */
function tail(line: ReportLine, f: Formatter): string {
  const id = sanitizeLine(line.item?.id ?? '');
  const size = formatBytes(line.size);
  const ids = (line.previous ?? []).map(sanitizeLine).join(', ');
  if (line.error) return `: ${sanitizeLine(line.error.message)} ${f.dim(`(${sanitizeLine(line.error.code)})`)}`;
  switch (line.status) {
    case 'upload':
      return ` ${f.dim(`(${size})`)}`;
    case 'uploaded':
      return ` ${f.dim('→')} ${id} ${f.dim(`(${size})`)}`;
    case 'exists':
      return ` ${f.dim('→')} ${id}`;
    case 'replace':
      return ` ${f.dim(`(${size})`)}${ids ? f.dim(` (then delete ${ids})`) : ''}`;
    case 'replaced':
      return ` ${f.dim('→')} ${id}${ids ? f.dim(` (was ${ids})`) : ''}`;
    case 'keep':
    case 'kept':
      return ` ${f.dim(`(${id}): ${sanitizeLine(line.reason ?? '')}`)}`;
    default:
      return ` ${f.dim(`(${id})`)}`;
  }
}

/** A line on a terminal, without its newline; undefined for a line only counted. */
export function terminalText(line: ReportLine, f: Formatter): string | undefined {
  const look = LOOKS[line.status];
  if (!look) return undefined;
  const [mark, paint, words] = look;
  return `${f[paint](mark)} ${words} ${sanitizeLine(line.path)}${tail(line, f)}`;
}

type PrinterContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'> & { signal?: AbortSignal };

export interface PrinterOptions {
  /** Piped, list unchanged files too. */
  verbose?: boolean;
  /** More words after a terminal line (the space an upload landed in). */
  suffix?: (line: ReportLine) => Promise<string>;
}

/** Prints lines as they come, in the form of this run; above the progress bar when one is shown. */
export interface LinePrinter {
  print(lines: ReportLine[]): Promise<void>;
}

export async function linePrinter(ctx: PrinterContext, options: PrinterOptions = {}): Promise<LinePrinter> {
  const json = wantsJson(ctx);
  const out = await getFormatter(ctx, 'stdout');
  const err = await getFormatter(ctx, 'stderr');

  /** The text for stdout and stderr, made ready before anything is written (a suffix may take a request). */
  async function texts(line: ReportLine): Promise<[string, string]> {
    if (json && ctx.flags.jq !== undefined)
      return [await runJq(jsonOf(line), ctx.flags.jq, false, { env: ctx.io.env, signal: ctx.signal }), ''];
    if (json) return [`${escapeJsonControls(JSON.stringify(jsonOf(line)))}\n`, ''];
    if (out.tty) {
      const text = terminalText(line, out);
      if (text === undefined) return ['', ''];
      const more = (await options.suffix?.(line)) ?? '';
      // With --debug, the Idempotency-Key a plan would send: after the wrapped line, never broken.
      const key = ctx.flags.debug && line.key ? out.dim(` key ${line.key}`) : '';
      return [`${wrapText(`${text}${more}`, ctx.io.columns, { hanging: 2 })}${key}\n`, ''];
    }
    if (line.status === 'unchanged' && !options.verbose) return ['', ''];
    const failure = line.error
      ? `${err.red('error:')} ${sanitizeLine(line.path)}: ${sanitizeLine(line.error.message)} (${sanitizeLine(line.error.code)})\n`
      : '';
    return [tsvOf(line), failure];
  }

  return {
    async print(lines) {
      let stdout = '';
      let stderr = '';
      for (const line of lines) {
        const [o, e] = await texts(line);
        stdout += o;
        stderr += e;
      }
      if (stdout === '' && stderr === '') return;
      await aboveLive(ctx.io.stderr, async () => {
        if (stdout !== '') await emit(ctx.io.stdout, stdout);
        if (stderr !== '') await emit(ctx.io.stderr, stderr);
      });
    },
  };
}
