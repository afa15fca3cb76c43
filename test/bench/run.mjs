#!/usr/bin/env node
// Start-up and request benchmarks of the built CLI (`npm run bench` builds first).
//
// Every figure is a ratio to bare `node -e 0` measured in the same rounds:
// commands are run in rotation (baseline, a, b, …, baseline, a, b, …) so a
// machine that gets busier or quieter during the run affects all of them alike.
// The median of N runs is reported. A benchmark whose prerequisites are missing
// (no build, no sandbox, command not there yet) is reported as skipped, not failed.
//
// To add benchmarks, append a section to `sections` below: a title, an optional
// async setup returning what its benchmarks need (and a close()), and a list of
// benchmarks { name, argv, env?, target?, check?, skip? }.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STARTUP_TARGETS } from './startup.mjs';
import { runOnce, timeInRotation } from './timing.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'kagent.js');
const node = process.execPath;
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
let runCounter = 0;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
// BENCH_ONLY=REGEX runs only the benchmarks (and sections) whose name matches, e.g. BENCH_ONLY=--version.
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const wanted = (name) => !ONLY || ONLY.test(name);

// ---------------------------------------------------------------- sections

const sections = [
  {
    title: 'Foundation',
    async setup() {
      const home = mkdtempSync(join(tmpdir(), 'kagent-bench-'));
      const env = {
        KAGENT_CONFIG_DIR: join(home, 'config'),
        KAGENT_CACHE_DIR: join(home, 'cache'),
        NO_COLOR: '1',
        CI: '1',
      };
      let sandbox;
      let sandboxSkip;
      try {
        const { startSandbox } = await import('../../dist/sandbox.js');
        // Benchmarks send far more than 60 requests a minute; the limit is not what is measured.
        sandbox = await startSandbox({ rateLimit: 1_000_000, quiet: true });
      } catch (error) {
        sandboxSkip = `no sandbox (${firstLine(error)})`;
      }
      return {
        env,
        sandbox,
        sandboxSkip,
        async close() {
          await sandbox?.close();
          rmSync(home, { recursive: true, force: true });
        },
      };
    },
    benchmarks: ({ env, sandbox, sandboxSkip }) => [
      {
        name: 'kagent --version',
        argv: [node, bin, '--version'],
        env,
        target: STARTUP_TARGETS.version,
        check: (r) => /\d+\.\d+\.\d+/.test(r.stdout),
      },
      {
        name: 'kagent --help',
        argv: [node, bin, '--help'],
        env,
        target: STARTUP_TARGETS.help,
        check: (r) => /Usage|usage/.test(r.stdout),
      },
      {
        name: 'kagent me --json (one GET)',
        argv: [node, bin, 'me', '--json'],
        // A fresh cache directory per run: kagent shares the 60/min budget between its
        // processes through a file there, and 20 runs a minute would be paced — correctly,
        // but that is not what this measures. (The sandbox's own limit is lifted in setup.)
        env:
          sandbox &&
          (() => ({
            ...env,
            KAGENT_CACHE_DIR: join(env.KAGENT_CACHE_DIR, String(++runCounter)),
            KAGENT_BASE_URL: sandbox.baseUrl,
            KAGENT_API_KEY: sandbox.apiKey,
          })),
        // No target here: the guard judges it against the bare GET (test/bench/startup.mjs).
        skip: sandboxSkip,
        check: (r) => isJsonObject(r.stdout),
      },
      {
        name: 'curl GET /me (reference)',
        argv: ['curl', '-sf', '-H', `authorization: Bearer ${sandbox?.apiKey}`, `${sandbox?.baseUrl}/me`],
        skip: sandboxSkip ?? (hasCurl() ? undefined : 'curl not installed'),
        check: (r) => isJsonObject(r.stdout),
      },
    ],
  },
];

// ---------------------------------------------------------------- run and report

function firstLine(value) {
  return (
    String(value instanceof Error ? value.message : value)
      .split('\n')
      .find(Boolean)
      ?.slice(0, 120) ?? 'failed'
  );
}

function isJsonObject(text) {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

let curlFound;
function hasCurl() {
  curlFound ??= ['/usr/bin/curl', '/usr/local/bin/curl', '/bin/curl'].some((path) => existsSync(path));
  return curlFound;
}

/** A benchmark runs only if its prerequisites are there and one run does what it should. */
async function skipReason(benchmark) {
  if (benchmark.skip) return benchmark.skip;
  if (benchmark.argv[1] === bin && !existsSync(join(root, 'dist', 'cli.js'))) return 'not built (run `npm run build`)';
  const result = await runOnce(benchmark.argv, benchmark.env);
  if (result.code !== 0) return `exit ${result.code}: ${firstLine(result.stderr || result.stdout || 'no output')}`;
  if (benchmark.check && !benchmark.check(result)) return `unexpected output: ${firstLine(result.stdout || '(empty)')}`;
  return undefined;
}

const rows = [];
for (const section of sections) {
  if (ONLY && !section.benchmarks({}).some((benchmark) => wanted(benchmark.name))) continue;
  let context = {};
  try {
    context = (await section.setup?.()) ?? {};
    const benchmarks = section.benchmarks(context).filter((benchmark) => wanted(benchmark.name));
    const runnable = [];
    for (const benchmark of benchmarks) {
      const reason = await skipReason(benchmark);
      if (reason) rows.push({ section: section.title, name: benchmark.name, skipped: reason });
      else runnable.push(benchmark);
    }
    if (runnable.length) {
      const [baseline, ...results] = await timeInRotation(
        [{ name: 'node -e 0', argv: [node, '-e', '0'] }, ...runnable],
        { runs: RUNS, warmup: WARMUP },
      );
      rows.push({ section: section.title, name: baseline.name, median: baseline.median, ratio: 1 });
      for (const result of results) rows.push({ section: section.title, ...result });
    }
  } catch (error) {
    rows.push({ section: section.title, name: '(section)', skipped: firstLine(error) });
  } finally {
    await context.close?.();
  }
}

const table = [['section', 'benchmark', 'median ms', 'ratio', 'target', 'result']];
let failed = 0;
for (const row of rows) {
  if (row.skipped) {
    table.push([row.section, row.name, '', '', '', `skipped: ${row.skipped}`]);
    continue;
  }
  // Three decimals: a ratio of 1.304 shown as "1.30×" beside "≤1.3× FAIL" reads as a contradiction.
  const verdict = row.target === undefined ? '' : row.ratio <= row.target ? 'PASS' : 'FAIL';
  if (verdict === 'FAIL') failed++;
  table.push([
    row.section,
    row.name,
    row.median.toFixed(1),
    `${row.ratio.toFixed(3)}×`,
    row.target === undefined ? '' : `≤${row.target}×`,
    verdict,
  ]);
}
const widths = table[0].map((_, column) => Math.max(...table.map((line) => line[column].length)));
for (const line of table)
  console.log(
    line
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
console.log(
  `\n${RUNS} timed runs each (after ${WARMUP} warm-up rounds), run in rotation with the baseline; node ${process.version}.`,
);
process.exitCode = failed ? 1 : 0;

// ---------------------------------------------------------------- the package
// `npm pack` of a clean copy (prepack builds it), then `npm install -g` of the tarball into a
// temporary prefix with a fresh HOME, from the local npm cache (test/bench/package.mjs):
// what a user's global install adds, in packages and bytes, and how long it takes.
if (wanted('Package')) {
  try {
    const { packAndInstall } = await import('./package.mjs');
    const installed = packAndInstall();
    const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    console.log(
      `\nPackage: tarball ${mib(installed.packed.size)} (${installed.packed.entryCount} files, ${mib(installed.packed.unpackedSize)} unpacked)`,
    );
    console.log(
      `  npm install -g: ${installed.packages.length} packages, ${mib(installed.bytes)}, ${(installed.installMs / 1000).toFixed(1)} s`,
    );
    console.log(`  ${installed.packages.join(', ')}`);
    installed.remove();
  } catch (error) {
    console.log(`\nPackage: skipped: ${firstLine(error)}`);
  }
}

// ---------------------------------------------------------------- start-up on every supported Node
// --version, --help and me --json on this Node and on Node 22, 24 and 26 (installed by
// scripts/nodes.mjs into a cache on first use), each against its own node -e 0 (test/bench/startup.mjs).
if (wanted('Start-up on every Node')) {
  try {
    const { benchStartup } = await import('./startup.mjs');
    if ((await benchStartup()) > 0) process.exitCode = 1;
  } catch (error) {
    console.log(`\nStart-up on every Node: skipped: ${firstLine(error)}`);
  }
}

// ---------------------------------------------------------------- on a terminal
// `doc show` of a 50 KB document rendered, and the first confirmation prompt of `space delete`,
// in a pseudo-terminal against `node -e 0` (test/bench/terminal.mjs; reported, no target).
if (wanted('Terminal')) {
  try {
    const { benchTerminal } = await import('./terminal.mjs');
    await benchTerminal();
  } catch (error) {
    console.log(`\nTerminal: skipped: ${firstLine(error)}`);
  }
}

// ---------------------------------------------------------------- the sandbox itself
// Throughput of GET /spaces and resident memory during 1 GiB / 4 GiB uploads (test/bench/sandbox.mjs).
if (wanted('Sandbox')) {
  const { benchSandbox } = await import('./sandbox.mjs');
  const sandboxRows = await benchSandbox();
  if (sandboxRows.some((row) => row.pass === false)) process.exitCode = 1;
}

// ---------------------------------------------------------------- the task follower
// Following a task that takes 60 s of sandbox time: at most 20 requests, completion seen
// within one poll interval (test/bench/task-follow.mjs; virtual time driven by the sandbox clock).
if (wanted('Task follower'))
  try {
    const { benchTaskFollow } = await import('./task-follow.mjs');
    const { ok } = await benchTaskFollow();
    if (!ok) process.exitCode = 1;
  } catch (error) {
    console.log(`\nTask follower: skipped: ${firstLine(error)}`);
  }

// ---------------------------------------------------------------- uploads
// `kagent lib upload` side by side with curl -T: 1 GiB within 1.3× of curl, peak RSS ≤ 128 MiB
// for 1 GiB and 4 GiB, 300 files at 600/min within 1.1× of the time the rate allows, no 429
// (test/bench/upload.mjs; BENCH_SKIP_4G=1 leaves the 4 GiB file out, BENCH_UPLOAD_RUNS sets the rounds).
if (wanted('Uploads'))
  try {
    const { benchUploads } = await import('./upload.mjs');
    if ((await benchUploads()) > 0) process.exitCode = 1;
  } catch (error) {
    console.log(`\nUploads: skipped: ${firstLine(error)}`);
  }

// ---------------------------------------------------------------- sync
// `kagent lib sync` of an unchanged folder of 1,000 files: only listing requests, within 1.2× of
// those requests made by kagent itself (`lib list --all --json`, start-up included) in alternating
// rounds (test/bench/sync.mjs; BENCH_SYNC_RUNS sets the rounds).
if (wanted('Sync'))
  try {
    const { benchSync } = await import('./sync.mjs');
    if ((await benchSync()) > 0) process.exitCode = 1;
  } catch (error) {
    console.log(`\nSync: skipped: ${firstLine(error)}`);
  }

// ---------------------------------------------------------------- sync's memory
// Peak RSS of a no-op `kagent lib sync` at 1,000, 5,000 and 20,000 files, beside `lib list --all
// --json` of the same space (test/bench/sync-memory.mjs; reported; BENCH_SYNC_MEMORY_FILES sets the sizes).
if (wanted('Sync memory'))
  try {
    const { benchSyncMemory } = await import('./sync-memory.mjs');
    if ((await benchSyncMemory()) > 0) process.exitCode = 1;
  } catch (error) {
    console.log(`\nSync memory: skipped: ${firstLine(error)}`);
  }

// ---------------------------------------------------------------- the request budget
// For each job (doc status, doc pull --all again, lib upload again, credits running out, a chat
// turn, task show --follow, lib sync first / no-op / 1% changed, lib list --all): the requests sent,
// from the sandbox's counts, against the fewest the contract allows; at most 1.05× each
// (test/bench/budget.mjs; BENCH_BUDGET_DOCS and BENCH_BUDGET_FILES set the sizes).
if (wanted('Request budget'))
  try {
    const { benchBudget } = await import('./budget.mjs');
    if ((await benchBudget()) > 0) process.exitCode = 1;
  } catch (error) {
    console.log(`\nRequest budget: skipped: ${firstLine(error)}`);
  }

// ---------------------------------------------------------------- pacing
// Against a sandbox enforcing 60 requests a minute: 30 sequential `kagent me --json` within 1.3× of
// the same against no limit; 61 requests in one process: the 61st waits ~61 s, no 429
// (test/bench/pacing.mjs; about two minutes; BENCH_SKIP_PACING=1 leaves it out).
if (!process.env.BENCH_SKIP_PACING) {
  try {
    const { benchPacing } = await import('./pacing.mjs');
    if ((await benchPacing()) > 0) process.exitCode = 1;
  } catch (error) {
    console.log(`\nPacing: skipped: ${firstLine(error)}`);
  }
}
