// Pacing against a sandbox that enforces 60 requests a minute (a sliding window,
// as the contract states the limit):
// - 30 sequential `kagent me --json` processes sharing one cache dir (as a shell
//   loop does) take within 1.3× of the same 30 against a sandbox with the limit
//   off: a burst up to the limit goes at once, nothing waits;
// - 61 requests from one process (`lib upload` of 61 small files):
//   the first 60 go at once, the 61st waits until the first leaves the window,
//   and not one gets a 429.
// Run by `npm run bench` (test/bench/run.mjs), or alone: `node test/bench/pacing.mjs`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, median } from './timing.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'kagent.js');
const SEQUENTIAL = 30;
const ROUNDS = Number(process.env.BENCH_PACING_ROUNDS ?? 3);
const TARGET = 1.3;
const { fetch } = globalThis;

function run(argv, env) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, ...argv], {
      env: benchEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code, stdout, stderr }));
  });
}

async function admin(sandbox, method, path, body) {
  const response = await fetch(`${sandbox.origin}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.status === 204 ? undefined : response.json();
}

/** 30 `kagent me --json` one after another, one fresh cache dir for the 30 (a shell loop). */
async function sequential(sandbox, work, tag) {
  // Empty windows on both sides: the sandbox's (reset by setting the limit again) and kagent's (a fresh cache dir).
  await admin(sandbox, 'POST', '/_sandbox/rate-limit', { perMinute: sandbox.limit });
  const env = {
    KAGENT_CONFIG_DIR: join(work, 'config'),
    KAGENT_CACHE_DIR: join(work, `cache-${tag}`),
    KAGENT_BASE_URL: sandbox.baseUrl,
    KAGENT_API_KEY: sandbox.apiKey,
    CI: '1',
    NO_COLOR: '1',
  };
  const started = process.hrtime.bigint();
  for (let i = 0; i < SEQUENTIAL; i++) {
    const r = await run(['me', '--json'], env);
    if (r.code !== 0) throw new Error(`kagent me exited ${r.code}: ${r.stderr.split('\n')[0]}`);
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function benchPacing({ log = console.log } = {}) {
  if (!existsSync(join(root, 'dist', 'sandbox.js'))) {
    log('\nPacing: skipped: not built (run `npm run build`)');
    return 0;
  }
  const { startSandbox } = await import('../../dist/sandbox.js');
  const work = mkdtempSync(join(tmpdir(), 'kagent-bench-pacing-'));
  const arrivals = [];
  const limited = await startSandbox({
    rateLimit: 60,
    quiet: false,
    log: (line) => arrivals.push({ at: Date.now(), line }),
  });
  const open = await startSandbox({ rateLimit: 0, quiet: true });
  limited.limit = 60;
  open.limit = 0;
  let failed = 0;
  const rows = [['benchmark', 'limit off', '60/min', 'figure', 'target', 'result']];
  try {
    // Rounds in rotation, so a machine that gets busier affects both alike.
    const times = { open: [], limited: [] };
    for (let round = 0; round < ROUNDS; round++) {
      times.open.push(await sequential(open, work, `open-${round}`));
      await admin(limited, 'DELETE', '/_sandbox/stats');
      times.limited.push(await sequential(limited, work, `limited-${round}`));
      const stats = await admin(limited, 'GET', '/_sandbox/stats');
      if ((stats.statuses['429'] ?? 0) > 0) throw new Error(`${stats.statuses['429']} answers were 429`);
    }
    const ratio = median(times.limited) / median(times.open);
    const pass = ratio <= TARGET;
    if (!pass) failed++;
    rows.push([
      `${SEQUENTIAL} sequential \`kagent me --json\``,
      `${(median(times.open) / 1000).toFixed(2)} s`,
      `${(median(times.limited) / 1000).toFixed(2)} s`,
      `${ratio.toFixed(3)}×`,
      `≤${TARGET}×`,
      pass ? 'PASS' : 'FAIL',
    ]);

    // 61 requests in one process: 61 uploads (small files: no GET /me).
    const dir = join(work, 'files');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 61; i++)
      writeFileSync(join(dir, `note-${String(i).padStart(2, '0')}.md`), `# Note ${i}\n\n${i * 7919}\n`);
    const { apiKey } = await admin(limited, 'POST', '/_sandbox/accounts', { credits: 100_000 });
    await admin(limited, 'DELETE', '/_sandbox/stats');
    arrivals.length = 0;
    const r = await run(['lib', 'upload', dir, '--json'], {
      KAGENT_CONFIG_DIR: join(work, 'config'),
      KAGENT_CACHE_DIR: join(work, 'cache-61'),
      KAGENT_BASE_URL: limited.baseUrl,
      KAGENT_API_KEY: apiKey,
      CI: '1',
      NO_COLOR: '1',
    });
    const stats = await admin(limited, 'GET', '/_sandbox/stats');
    const requests = Object.values(stats.requests).reduce((a, b) => a + b, 0);
    const throttled = stats.statuses['429'] ?? 0;
    const api = arrivals.filter((a) => /\/api\/v1\//.test(a.line));
    const gap = api.length >= 61 ? (api[60].at - api[0].at) / 1000 : NaN;
    const before = api.length >= 60 ? (api[59].at - api[0].at) / 1000 : NaN;
    const notice = /waiting \d+ s: rate limit/.test(r.stderr);
    const ok = r.code === 0 && requests === 61 && throttled === 0 && gap >= 60 && gap <= 63 && notice;
    if (!ok) failed++;
    rows.push([
      '61 requests in one process',
      '',
      `${(r.ms / 1000).toFixed(1)} s`,
      `first 60 within ${before.toFixed(1)} s; 61st after ${gap.toFixed(1)} s; ${throttled} × 429; notice ${notice ? 'shown' : 'missing'}`,
      '61st waits ~61 s, no 429',
      ok ? 'PASS' : `FAIL (exit ${r.code}, ${requests} requests)`,
    ]);
  } finally {
    await limited.close();
    await open.close();
    rmSync(work, { recursive: true, force: true });
  }
  log('');
  const widths = rows[0].map((_, column) => Math.max(...rows.map((line) => line[column].length)));
  for (const line of rows)
    log(
      line
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    );
  log(`Pacing: ${ROUNDS} rounds of ${SEQUENTIAL} in rotation; node ${process.version}.`);
  return failed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = (await benchPacing()) > 0 ? 1 : 0;
}
