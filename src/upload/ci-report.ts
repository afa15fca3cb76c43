// The one CI writer of `lib upload` and `lib sync`: where CI reads a run's
// results, apart from the terminal/piped/JSON output (report.ts, sync-report.ts):
//   GITHUB_ACTIONS set   a Markdown table appended to $GITHUB_STEP_SUMMARY;
//                        one `::error file=PATH::message` annotation per failed
//                        file, and `::warning` for a file skipped or a note of the
//                        run, on stderr (the runner reads workflow commands there);
//                        a refusal of the whole run: one `::error` and a line in
//                        the step summary
//   --report FILE        a JUnit XML report, one test case per file (GitLab,
//                        Jenkins, Azure and others read it)
// What differs between the two commands is a CiCommand (its names and the
// columns of its table); everything else is written here, once.
import type { Context } from '../context.js';
import { formatBytes } from '../io/bytes.js';
import { warn } from '../io/output.js';
import { replaceFile } from '../io/replace-file.js';
import { sanitize, sanitizeLine } from '../io/sanitize.js';
import { emit } from '../io/streams.js';
import { inGitHubActions, ownWorkflowCommand } from '../io/workflow-commands.js';
import type { Skipped, Source } from './discover.js';
import { rulesText, type PathFilter } from './filter.js';
import type { Reporter } from './report.js';
import type { FileError, UploadSummary } from './uploader.js';
import { appendFile, stat } from 'node:fs/promises';

type CiContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'>;

/** A file's outcome as CI shows it: `lib upload`'s FileResult and `lib sync`'s SyncEntry both read as one. */
export interface CiResult {
  path: string;
  status: string;
  size?: number;
  item?: { id: string };
  /** Items of earlier versions deleted (sync's replaced). */
  previous?: string[];
  /** Why an item is kept (sync). */
  reason?: string;
  error?: Pick<FileError, 'code' | 'message' | 'hint'>;
}

/** A test case of the JUnit report: a file's outcome and how long it took (failed and skipped read alike for every command). */
export interface JunitCase {
  result: CiResult;
  seconds: number;
}

/** What one command's CI output is called and how its step summary's table reads. */
export interface CiCommand {
  /** The step summary's heading, the JUnit suite's name, the refusal's annotation title. */
  title: string;
  /** The JUnit test cases' classname. */
  classname: string;
  /** A failed file's annotation title: `${verb} failed (CODE)`. */
  verb: string;
  /** The Status column's words (the rest of the row: `columns`). */
  statuses: Record<string, string>;
  columns: Array<{ head: string; align: '---' | '---:'; cell: (r: CiResult) => string }>;
  /** A file's row in the table (default: every file). */
  listed?: (r: CiResult) => boolean;
}

/** The service's error as a cell: the code as a code span, the message as text. */
function errorCell(error: NonNullable<CiResult['error']>): string {
  return `${markdownCode(error.code)}: ${markdownText(error.message)}`;
}

export const UPLOAD_CI: CiCommand = {
  title: 'kagent lib upload',
  classname: 'kagent.lib.upload',
  verb: 'upload',
  statuses: {
    uploaded: '✅ uploaded',
    exists: '☑️ already there',
    failed: '❌ failed',
    skipped: '⏭️ not attempted',
  },
  columns: [
    { head: 'File', align: '---', cell: (r) => markdownCode(r.path) },
    { head: 'Size', align: '---:', cell: (r) => formatBytes(r.size ?? 0) },
    {
      head: 'Item or error',
      align: '---',
      cell: itemOrErrorCell,
    },
  ],
};

function itemOrErrorCell(r: CiResult): string {
  if (r.error) return errorCell(r.error);
  return r.item?.id ? markdownCode(r.item.id) : '';
}

export const SYNC_CI: CiCommand = {
  title: 'kagent lib sync',
  classname: 'kagent.lib.sync',
  verb: 'sync',
  statuses: {
    uploaded: '✅ uploaded',
    replaced: '🔄 replaced',
    deleted: '🗑️ deleted',
    unchanged: '☑️ unchanged',
    kept: '⚠️ kept',
    failed: '❌ failed',
    skipped: '⏭️ not attempted',
  },
  columns: [
    { head: 'File', align: '---', cell: (r) => markdownCode(r.path) },
    { head: 'Item', align: '---', cell: (r) => (r.item ? markdownCode(r.item.id) : '') },
    {
      head: 'Detail',
      align: '---',
      cell: (r) =>
        r.error
          ? markdownText(`${r.error.code}: ${r.error.message}`)
          : markdownText(r.reason ?? (r.previous?.length ? `was ${r.previous.join(', ')}` : '')),
    },
  ],
  // The files that stayed as they were are in the count line only.
  listed: (r) => r.status !== 'unchanged',
};

// ---------------------------------------------------------------- annotations

/** A workflow command's message: %, CR and LF escaped as the runner expects. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property (file=…): also : and , escaped. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * `::error file=…,title=…::message` (or `::warning`, without a file for the run as a whole): file names and the
 * service's words, sanitised as all output is (no escape sequence, no control character, bidi controls shown as
 * <U+202E>), then escaped as GitHub specifies, so that neither can end the line, add a property or start a command
 * of its own.
 */
export function annotation(level: 'error' | 'warning', where: { file?: string; title: string }, message: string) {
  const file = where.file === undefined ? '' : `file=${escapeProperty(sanitizeLine(where.file))},`;
  return ownWorkflowCommand(
    `::${level} ${file}title=${escapeProperty(sanitizeLine(where.title))}::${escapeData(sanitize(message))}\n`,
  );
}

/** A failed file's `::error` annotation. */
export function errorAnnotation(file: string, title: string, message: string): string {
  return annotation('error', { file, title }, message);
}

// ---------------------------------------------------------------- the step summary

/**
 * Text for a Markdown table cell, backslash-escaped only where GitHub's renderer would read it otherwise: HTML
 * and entities (`<`, `&`), links, images and autolinks (`[`, `]`, the `:` of `https:`, the `.` of `www.`, `@`),
 * the table's `|`, emphasis, strike-through and code (`*`, `~`, a backtick, and `_` but inside a word), and a
 * backslash that would escape what follows. The rest (`blob.bin`, `li_1`, `(NUL bytes);`) stays as written.
 */
export function markdownText(text: string): string {
  return sanitizeLine(text).replace(
    /\\(?=[!-/:-@[-`{-~])|[`*~<&[\]|_@]|(?<=\b(?:https?|ftp)):|(?<=\bwww)\./gi,
    (c, at: number, all: string) =>
      c === '_' && /[\p{L}\p{N}]/u.test(all[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[at + 1] ?? '') ? c : `\\${c}`,
  );
}

/**
 * A code span for a table cell that cannot be broken out of: fenced by one backtick more than the longest run
 * inside (padded with a space where the text starts or ends with a backtick or space), `|` escaped for the table.
 * A backslash right before a `|` cannot be written in a code span (the table reads `\\|` as a backslash and the
 * cell's end): such text is written as escaped text instead (markdownText), which renders the same characters.
 */
export function markdownCode(text: string): string {
  if (/\\\|/.test(sanitizeLine(text))) return markdownText(text);
  const clean = sanitizeLine(text).replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(clean) || clean === '' ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** A note of the run as a whole: a `::warning` annotation and a quoted line in the step summary. */
export interface CiNote {
  title: string;
  text: string;
}

/**
 * A command's step summary: its heading, the count line, any note, then a row per file listed (file names, ids,
 * codes and messages come from disk and from the service: written as text, never as Markdown), within `budget`.
 */
export function stepSummary(
  command: CiCommand,
  results: CiResult[],
  counts: string,
  budget = STEP_SUMMARY_LIMIT,
  note?: CiNote,
): string {
  const lines = [`### ${command.title}`, '', counts, ''];
  if (note) lines.push(`> ${markdownText(note.title)}: ${markdownText(note.text)}.`, '');
  const rows = results
    .filter((r) => command.listed?.(r) ?? true)
    .map(
      (r) => `| ${[command.statuses[r.status] ?? r.status, ...command.columns.map((c) => c.cell(r))].join(' | ')} |`,
    );
  if (rows.length === 0) return `${lines.join('\n')}\n\n`;
  const head = `| Status | ${command.columns.map((c) => c.head).join(' | ')} |`;
  const align = `| --- | ${command.columns.map((c) => c.align).join(' | ')} |`;
  return cappedTable([...lines, head, align], rows, budget);
}

/** GitHub shows a step's summary only up to 1 MiB (the whole file: what earlier commands of the step wrote too). */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

/**
 * `head` then as many `rows` as fit in `budget` bytes (UTF-8), then a line saying how many were left out: a
 * summary over GitHub's limit is not shown at all.
 */
function cappedTable(head: string[], rows: string[], budget: number): string {
  const room = budget - 256; // the closing line's
  let text = `${head.join('\n')}\n`;
  let used = Buffer.byteLength(text);
  let kept = 0;
  for (const row of rows) {
    const size = Buffer.byteLength(row) + 1;
    if (used + size > room) break;
    text += `${row}\n`;
    used += size;
    kept++;
  }
  const left = rows.length - kept;
  if (left > 0)
    text += `\n> ${left} more row${left === 1 ? '' : 's'} left out: GitHub shows at most 1 MiB of a step's summary (--report and --json list every file).\n`;
  return `${text}\n`;
}

/** Appends to $GITHUB_STEP_SUMMARY within what is left of GitHub's 1 MiB; a failure is a warning. */
async function appendStepSummary(ctx: CiContext, build: (budget: number) => string): Promise<void> {
  const path = ctx.io.env.GITHUB_STEP_SUMMARY;
  if (!path) return;
  const written = await stat(path).then(
    (info) => info.size,
    () => 0,
  );
  await appendFile(path, build(Math.max(0, STEP_SUMMARY_LIMIT - written))).catch((error: Error) =>
    warn(ctx, `could not write the step summary to ${path}: ${error.message}`),
  );
}

// ---------------------------------------------------------------- JUnit

export function xmlEscape(text: string): string {
  // Characters XML 1.0 cannot hold at all are dropped.
  return text
    .replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** An attribute's text: one line (no newline, CR or NEL for a reader to fold), bidi controls shown, XML-escaped. */
function xmlAttribute(text: string): string {
  return xmlEscape(sanitizeLine(text));
}

/**
 * The JUnit XML report, valid under Jenkins' JUnit schema (jenkins-junit.xsd, which GitLab and others read
 * alike): counts on `<testsuite>` (`skipped` only there), a bare `<skipped>` element, one line per attribute.
 */
export function junitXml(
  timed: JunitCase[],
  timestamp: string,
  seconds: number,
  suite: Pick<CiCommand, 'title' | 'classname'> = UPLOAD_CI,
): string {
  const failures = timed.filter((t) => t.result.status === 'failed').length;
  const skipped = timed.filter((t) => t.result.status === 'skipped').length;
  const counts = `tests="${timed.length}" failures="${failures}" errors="0"`;
  const time = `time="${seconds.toFixed(3)}"`;
  const cases = timed.map(({ result: r, seconds: s }) => {
    const open = `    <testcase name="${xmlAttribute(r.path)}" classname="${xmlAttribute(suite.classname)}" time="${s.toFixed(3)}"`;
    if (r.status === 'failed') {
      const message = r.error?.message ?? 'failed';
      const code = r.error?.code ?? 'ERROR';
      const body = xmlEscape(sanitize(`${code}: ${message}${r.error?.hint ? `\n${r.error.hint}` : ''}`));
      return `${open}>\n      <failure message="${xmlAttribute(message)}" type="${xmlAttribute(code)}">${body}</failure>\n    </testcase>`;
    }
    if (r.status === 'skipped') return `${open}>\n      <skipped>not attempted</skipped>\n    </testcase>`;
    return `${open}>\n      <system-out>${xmlEscape(sanitize(`${r.status} ${r.item?.id ?? ''}`.trim()))}</system-out>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(suite.title)}" ${counts} ${time}>`,
    `  <testsuite name="${xmlAttribute(suite.title)}" ${counts} skipped="${skipped}" ${time} timestamp="${timestamp}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

// ---------------------------------------------------------------- a run's writer

/** A run's CI output: each file's outcome and time as it ends, then the annotations, the step summary and JUnit. */
export class CiWriter {
  private readonly startedAt: number;
  private readonly starts = new Map<Source, number>();
  private readonly cases: JunitCase[] = [];

  private constructor(
    private readonly ctx: CiContext,
    private readonly command: CiCommand,
    private readonly github: boolean,
    private readonly options: { report?: string; dir?: string },
  ) {
    this.startedAt = ctx.clock.now();
  }

  /**
   * The writer of a run, or undefined when neither GitHub Actions nor `--report FILE` asks for one. `dir`: the
   * folder the results' paths are relative to (sync's), which an annotation's file name starts with.
   */
  static open(ctx: CiContext, command: CiCommand, options: { report?: string; dir?: string }): CiWriter | undefined {
    const github = inGitHubActions(ctx.io.env);
    return github || options.report !== undefined ? new CiWriter(ctx, command, github, options) : undefined;
  }

  started(source: Source): void {
    this.starts.set(source, this.ctx.clock.now());
  }

  finished(result: CiResult, source?: Source): void {
    const began = source ? this.starts.get(source) : undefined;
    this.cases.push({ result, seconds: began === undefined ? 0 : (this.ctx.clock.now() - began) / 1000 });
  }

  /** Writes it all: `counts` is the step summary's count line, `note` a warning for the run as a whole. */
  async close(counts: string, elapsedMs: number, note?: CiNote): Promise<void> {
    const { ctx, command } = this;
    if (this.github) {
      const dir = this.options.dir?.replace(/[\\/]+$/, '');
      const file = (path: string) => (dir === undefined ? path : `${dir}/${path}`);
      for (const { result } of this.cases) {
        if (result.status !== 'failed') continue;
        const code = result.error?.code ?? 'ERROR';
        const message = `${file(result.path)}: ${result.error?.message ?? 'failed'}`;
        await emit(ctx.io.stderr, errorAnnotation(file(result.path), `${command.verb} failed (${code})`, message));
      }
      if (note) await emit(ctx.io.stderr, annotation('warning', { title: note.title }, note.text));
      const results = this.cases.map((t) => t.result);
      await appendStepSummary(ctx, (budget) => stepSummary(command, results, counts, budget, note));
    }
    const report = this.options.report;
    if (report !== undefined) {
      const timestamp = new Date(this.startedAt).toISOString().replace(/\.\d+Z$/, '');
      await replaceFile(report, junitXml(this.cases, timestamp, elapsedMs / 1000, command)).catch((error: Error) =>
        warn(ctx, `could not write the JUnit report to ${report}: ${error.message}`),
      );
    }
  }
}

/** `lib upload`'s count line in the step summary. */
function uploadCounts(summary: UploadSummary): string {
  const skipped = summary.skipped > 0 ? `, ${summary.skipped} not attempted` : '';
  return `${summary.uploaded} uploaded, ${summary.exists} already there, ${summary.failed} failed${skipped} (${formatBytes(summary.bytes)})`;
}

/** Wraps `lib upload`'s reporter: the same output, plus the CI reports when GITHUB_ACTIONS is set or a --report FILE is given. */
export function withCiReports(ctx: CiContext, reporter: Reporter, options: { report?: string }): Reporter {
  const ci = CiWriter.open(ctx, UPLOAD_CI, options);
  if (!ci) return reporter;
  return {
    ...reporter,
    started(source) {
      ci.started(source);
      reporter.started?.(source);
    },
    async finished(result, source) {
      ci.finished(result, source);
      await reporter.finished(result, source);
    },
    async summary(summary, elapsedMs) {
      await reporter.summary(summary, elapsedMs);
      await ci.close(uploadCounts(summary), elapsedMs);
    },
  };
}

/**
 * What discover found but did not send: one warning line each on stderr (and a `::warning` annotation in GitHub
 * Actions), then how many files --exclude/--include left out. Links out of the folder and kagent's own files are
 * said every run, --quiet too: a file someone meant to send was not.
 */
export async function reportSkipped(ctx: CiContext, skipped: Skipped[], filter?: PathFilter): Promise<void> {
  const github = inGitHubActions(ctx.io.env);
  let excluded = 0;
  for (const s of skipped) {
    if (s.code === 'EXCLUDED') {
      excluded++;
      continue;
    }
    await warn(ctx, `skipped ${sanitizeLine(s.display)}: ${s.reason} (${s.code})`);
    if (github)
      await emit(
        ctx.io.stderr,
        annotation(
          'warning',
          { file: s.display, title: `kagent skipped a file (${s.code})` },
          `${s.display}: ${s.reason}`,
        ),
      );
  }
  if (excluded > 0 && filter && !ctx.flags.quiet)
    await emit(
      ctx.io.stderr,
      `${excluded} file${excluded === 1 ? '' : 's'} left out by ${sanitizeLine(rulesText(filter.rules))}\n`,
    );
}

/** Per-file failures, already annotated file by file: not a refusal of the run. */
const PER_FILE = new Set(['SYNC_FAILED', 'UPLOAD_FAILED']);

/**
 * Runs `lib upload` or `lib sync` (`title`, as the report names it). A run refused or stopped as a whole
 * (TOO_MANY_DELETES, --delete without --yes, MAPPING_UNAVAILABLE, credits exhausted…) is also said where CI
 * shows it: in GitHub Actions, an `::error` annotation and a line in the step summary; then the error goes on.
 */
export async function reportingRefusal(ctx: CiContext, title: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (inGitHubActions(ctx.io.env) && error instanceof Error && typeof code === 'string' && !PER_FILE.has(code)) {
      await emit(ctx.io.stderr, annotation('error', { title: `${title} refused (${code})` }, error.message));
      await appendStepSummary(
        ctx,
        () => `### ${title}\n\n❌ Refused (${markdownCode(code)}): ${markdownText(sanitize(error.message))}\n\n`,
      );
    }
    throw error;
  }
}
