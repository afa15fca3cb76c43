// `lib upload` results where CI reads them, fed by the reporter's events (a
// wrapper around report.ts's Reporter: the terminal/piped/JSON output is
// unchanged):
//   GITHUB_ACTIONS set   a Markdown table appended to $GITHUB_STEP_SUMMARY, and
//                        one `::error file=PATH::message` annotation per failed
//                        file on stderr (the runner reads workflow commands there)
//   --report FILE        a JUnit XML report, one test case per file (GitLab,
//                        Jenkins, Azure and others read it)
import type { Context } from '../context.js';
import { sanitize, sanitizeLine } from '../io/sanitize.js';
import { emit } from '../io/streams.js';
import { replaceFile } from '../io/replace-file.js';
import { ownWorkflowCommand } from '../io/workflow-commands.js';
import type { Skipped, Source } from './discover.js';
import { rulesText, type PathFilter } from './filter.js';
import { formatBytes } from './prepare.js';
import type { Reporter } from './report.js';
import type { FileResult, UploadSummary } from './uploader.js';
import { warn } from '../io/output.js';
import { appendFile, stat } from 'node:fs/promises';

type CiContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'>;

interface Timed {
  result: FileResult;
  seconds: number;
}

/** A test case of the JUnit report: `lib upload`'s file, or another command's with statuses of its own (failed and skipped read alike). */
export interface JunitCase {
  result: Pick<FileResult, 'path' | 'error'> & { status: string; item?: { id: string } };
  seconds: number;
}

/** A workflow command's message: %, CR and LF escaped as the runner expects. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property (file=…): also : and , escaped. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * `::error file=…,title=…::message`: file names and the service's words, sanitised as all output is (no escape
 * sequence, no control character, bidi controls shown as <U+202E>), then escaped as GitHub specifies, so that
 * neither can end the line, add a property or start a command of its own.
 */
export function errorAnnotation(file: string, title: string, message: string): string {
  return ownWorkflowCommand(
    `::error file=${escapeProperty(sanitizeLine(file))},title=${escapeProperty(sanitizeLine(title))}::${escapeData(sanitize(message))}\n`,
  );
}

export function xmlEscape(text: string): string {
  // Characters XML 1.0 cannot hold at all are dropped.
  return text
    .replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

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

const STATUS_WORDS: Record<FileResult['status'], string> = {
  uploaded: '✅ uploaded',
  exists: '☑️ already there',
  failed: '❌ failed',
  skipped: '⏭️ not attempted',
};

export function stepSummary(results: FileResult[], summary: UploadSummary, budget = STEP_SUMMARY_LIMIT): string {
  const head = [
    '### kagent lib upload',
    '',
    `${summary.uploaded} uploaded, ${summary.exists} already there, ${summary.failed} failed${summary.skipped > 0 ? `, ${summary.skipped} not attempted` : ''} (${formatBytes(summary.bytes)})`,
    '',
    '| Status | File | Size | Item or error |',
    '| --- | --- | ---: | --- |',
  ];
  const rows = results.map((r) => {
    // File names, ids, codes and messages come from disk and from the service: written as text, never as Markdown.
    const detail = r.error
      ? `${markdownCode(r.error.code)}: ${markdownText(r.error.message)}`
      : r.item?.id
        ? markdownCode(r.item.id)
        : '';
    return `| ${STATUS_WORDS[r.status]} | ${markdownCode(r.path)} | ${formatBytes(r.size)} | ${detail} |`;
  });
  return cappedTable(head, rows, budget);
}

/** GitHub shows a step's summary only up to 1 MiB (the whole file: what earlier commands of the step wrote too). */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

/**
 * `head` then as many `rows` as fit in `budget` bytes (UTF-8), then a line saying how many were left out: a
 * summary over GitHub's limit is not shown at all.
 */
export function cappedTable(head: string[], rows: string[], budget: number): string {
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

/** Appends a step summary to $GITHUB_STEP_SUMMARY within what is left of GitHub's 1 MiB; a failure is a warning. */
export async function appendStepSummary(ctx: CiContext, build: (budget: number) => string): Promise<void> {
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

/** An attribute's text: one line (no newline, CR or NEL for a reader to fold), bidi controls shown, XML-escaped. */
function xmlAttribute(text: string): string {
  return xmlEscape(sanitizeLine(text));
}

/**
 * The JUnit XML report, in the layout of Jenkins' JUnit schema (jenkins-junit.xsd, which GitLab and others read
 * alike): counts on `<testsuite>` (`skipped` only there), a bare `<skipped>` element, one line per attribute.
 */
export function junitXml(
  timed: JunitCase[],
  timestamp: string,
  seconds: number,
  suite = { name: 'kagent lib upload', classname: 'kagent.lib.upload' },
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
    `<testsuites name="${xmlAttribute(suite.name)}" ${counts} ${time}>`,
    `  <testsuite name="${xmlAttribute(suite.name)}" ${counts} skipped="${skipped}" ${time} timestamp="${timestamp}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Wraps the reporter: the same output, plus the CI reports when GITHUB_ACTIONS is set or a --report FILE is given. */
export function withCiReports(ctx: CiContext, reporter: Reporter, options: { report?: string }): Reporter {
  const github = inGithubActions(ctx.io.env);
  if (!github && options.report === undefined) return reporter;
  const startedAt = ctx.clock.now();
  const starts = new Map<Source, number>();
  const timed: Timed[] = [];
  return {
    ...reporter,
    started(source) {
      starts.set(source, ctx.clock.now());
      reporter.started?.(source);
    },
    async finished(result, source) {
      const began = starts.get(source);
      timed.push({ result, seconds: began === undefined ? 0 : (ctx.clock.now() - began) / 1000 });
      await reporter.finished(result, source);
    },
    async summary(summary, elapsedMs) {
      await reporter.summary(summary, elapsedMs);
      if (github) {
        for (const { result } of timed) {
          if (result.status !== 'failed') continue;
          await emit(
            ctx.io.stderr,
            errorAnnotation(
              result.path,
              `upload failed (${result.error?.code ?? 'ERROR'})`,
              `${result.path}: ${result.error?.message ?? 'failed'}`,
            ),
          );
        }
        await appendStepSummary(ctx, (budget) =>
          stepSummary(
            timed.map((t) => t.result),
            summary,
            budget,
          ),
        );
      }
      if (options.report !== undefined) {
        const xml = junitXml(timed, new Date(startedAt).toISOString().replace(/\.\d+Z$/, ''), elapsedMs / 1000);
        await replaceFile(options.report, xml).catch((error: Error) =>
          warn(ctx, `could not write the JUnit report to ${options.report}: ${error.message}`),
        );
      }
    },
  };
}

/**
 * What discover found but did not send: one warning line each on stderr (and a `::warning` annotation in GitHub
 * Actions), then how many files --exclude/--include left out. Links out of the folder and kagent's own files are
 * said every run, --quiet too: a file someone meant to send was not.
 */
export async function reportSkipped(ctx: CiContext, skipped: Skipped[], filter?: PathFilter): Promise<void> {
  const github = inGithubActions(ctx.io.env);
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
        ownWorkflowCommand(
          `::warning file=${escapeProperty(sanitizeLine(s.display))},title=${escapeProperty(`kagent skipped a file (${s.code})`)}::${escapeData(sanitize(`${s.display}: ${s.reason}`))}\n`,
        ),
      );
  }
  if (excluded > 0 && filter && !ctx.flags.quiet)
    await emit(
      ctx.io.stderr,
      `${excluded} file${excluded === 1 ? '' : 's'} left out by ${sanitizeLine(rulesText(filter.rules))}\n`,
    );
}

/** GITHUB_ACTIONS set (to anything but empty or false). */
export function inGithubActions(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS !== undefined && env.GITHUB_ACTIONS !== '' && env.GITHUB_ACTIONS !== 'false';
}

/** Per-file failures, already annotated file by file: not a refusal of the run. */
const PER_FILE = new Set(['SYNC_FAILED', 'UPLOAD_FAILED']);

/**
 * A run refused or stopped as a whole (TOO_MANY_DELETES, --delete without --yes, MAPPING_UNAVAILABLE, credits
 * exhausted…): in GitHub Actions, an `::error` annotation and a line in the step summary, then the error goes on.
 */
export async function reportRunRefusal(ctx: CiContext, title: string, error: unknown): Promise<never> {
  const code = (error as { code?: unknown }).code;
  if (inGithubActions(ctx.io.env) && error instanceof Error && typeof code === 'string' && !PER_FILE.has(code)) {
    const message = sanitize(error.message);
    await emit(
      ctx.io.stderr,
      ownWorkflowCommand(`::error title=${escapeProperty(`${title} refused (${code})`)}::${escapeData(message)}\n`),
    );
    await appendStepSummary(
      ctx,
      () => `### ${title}\n\n❌ Refused (${markdownCode(code)}): ${markdownText(message)}\n\n`,
    );
  }
  throw error;
}
