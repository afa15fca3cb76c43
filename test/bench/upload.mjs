// Upload benchmarks of the built CLI (`kagent lib upload`), side by side with
// curl, against the sandbox running in a child process (`kagent sandbox`):
//   1. a 1 GiB file: kagent's wall time within 1.3× of `curl -T FILE -X POST`
//      sent with the same headers (Authorization, Content-Type, X-File-Name,
//      Idempotency-Key) and query — judged on cold runs (a fresh cache dir:
//      nothing recorded by an earlier run); kagent's peak resident memory
//      (VmHWM from /proc/<pid>/status, polled while it runs) at most 128 MiB;
//      shown beside them, a rerun of one upload (answered from the idempotency
//      cache, after kagent checks the file's SHA-256 against the service's);
//   2. a 4 GiB file: the same memory bound (the account's per-file and storage
//      limits raised through PATCH /_sandbox/account). BENCH_SKIP_4G=1 skips it;
//   3. 300 small files against a sandbox allowing 600 requests a minute:
//      within 1.1× of the time that rate allows for every request made
//      (GET /me included), with zero 429 answers.
// Runs take turns (the order rotates every round) so a machine that gets
// busier or quieter affects all alike; medians are reported. A note that
// differs per run makes a new idempotency key, and each uploaded item is
// deleted again, so the sandbox does the same work for curl and kagent.
//
// Run alone:      node test/bench/upload.mjs        (after `npm run build`)
// From run.mjs:   const { benchUploads } = await import('./upload.mjs'); failed += await benchUploads();
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { benchEnv, median } from './timing.mjs';

const { fetch } = globalThis;

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'kagent.js');
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const RUNS = Number(process.env.BENCH_UPLOAD_RUNS ?? 5);
const TARGET_RATIO = 1.3;
const TARGET_PEAK_MIB = 128;
const TARGET_PACED = 1.1;
const SMALL_FILES = 300;
const PACED_RATE = 600;

// ---------------------------------------------------------------- processes

/** Runs a command; resolves with wall time, exit code, output and (when asked) the peak resident memory seen. */
function run(argv, { env = {}, watchMemory = false } = {}) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), { env: benchEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakKiB = 0;
    const poll = () => {
      try {
        const kib = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        if (kib > peakKiB) peakKiB = kib;
      } catch {
        // gone already
      }
    };
    const timer = watchMemory ? setInterval(poll, 20) : undefined;
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ ms: NaN, code: -1, stdout, stderr: String(error), peakMiB: NaN }));
    // 'exit' comes before the pipes are closed: one last look at the memory while /proc still has it.
    child.on('exit', () => watchMemory && poll());
    child.on('close', (code) => {
      if (timer) clearInterval(timer);
      resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code, stdout, stderr, peakMiB: peakKiB / 1024 });
    });
  });
}

/** `kagent sandbox` in a child process; resolves once it prints its base URL and key. */
function startSandbox(rateLimit) {
  const child = spawn(
    process.execPath,
    [bin, 'sandbox', '--port', '0', '--rate-limit', String(rateLimit), '--no-save-profile', '--quiet', '--json'],
    {
      env: { ...process.env, KAGENT_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'kagent-bench-sandbox-')) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      if (buffered.includes('\n')) {
        const info = JSON.parse(buffered.split('\n')[0]);
        resolve({
          ...info,
          origin: new URL(info.baseUrl).origin,
          stop: () =>
            new Promise((done) => {
              child.removeAllListeners('exit');
              child.once('exit', () => done());
              child.kill('SIGINT');
            }),
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code} before listening`)));
  });
}

async function api(sandbox, method, path, { body, key = sandbox.apiKey } = {}) {
  const url = path.startsWith('/_sandbox/') ? `${sandbox.origin}${path}` : `${sandbox.baseUrl}${path}`;
  const response = await fetch(url, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

// ---------------------------------------------------------------- files

/** A file of `size` bytes that is accepted as a PDF (too large to parse): a header, then random blocks. */
function makeBigFile(path, size) {
  const block = randomBytes(16 * MiB);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, Buffer.from('%PDF-1.4\n% kagent upload benchmark\n'));
    let written = 36;
    for (let i = 0; written < size; i++) {
      block.writeUInt32LE(i, 0); // no two blocks alike
      const n = Math.min(block.length, size - written);
      writeSync(fd, block, 0, n);
      written += n;
    }
    // On disk before the first run: otherwise the kernel writes the new file back during
    // the first rounds, and whichever tool runs then pays for it.
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------- helpers

function firstLine(text) {
  return String(text).split('\n').find(Boolean)?.slice(0, 160) ?? '';
}

function ndjson(text) {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** A fresh Idempotency-Key for each curl run (kagent derives its own from the bytes, name and note). */
function curlKey(round) {
  return `bench-curl-${Date.now()}-${round}-${createHash('sha256').update(randomBytes(16)).digest('hex').slice(0, 16)}`;
}

// ---------------------------------------------------------------- the benchmarks

async function bigUpload(sandbox, work, size, label, runs, { rerun = true } = {}) {
  const file = join(work, `${label}.pdf`);
  makeBigFile(file, size);
  const env = {
    KAGENT_BASE_URL: sandbox.baseUrl,
    KAGENT_API_KEY: sandbox.apiKey,
    KAGENT_CONFIG_DIR: join(work, 'config'),
    CI: '1',
    NO_COLOR: '1',
  };
  // Cold: a fresh cache dir every run (a CI job's first upload of the file).
  const kagentRun = async (note, status = 'uploaded') => {
    const cacheDir = mkdtempSync(join(work, `cache-${label}-`));
    const result = await run([process.execPath, bin, 'lib', 'upload', file, '--note', note, '--json'], {
      env: { ...env, KAGENT_CACHE_DIR: cacheDir },
      watchMemory: true,
    });
    if (result.code !== 0)
      throw new Error(`kagent failed (exit ${result.code}): ${firstLine(result.stderr || result.stdout)}`);
    const [answer] = ndjson(result.stdout);
    if (answer.status !== status)
      throw new Error(`kagent answered ${answer.status}, not ${status}: ${JSON.stringify(answer).slice(0, 200)}`);
    return { result, itemId: answer.item.id };
  };
  const tools = ['curl', 'cold'];
  const times = { curl: [], cold: [], rerun: [], sha256sum: [] };
  const peaks = [];
  for (let round = 0; round < runs; round++) {
    const order = tools.map((_, i) => tools[(i + round) % tools.length]);
    for (const tool of order) {
      const note = `bench ${label} ${tool} ${Date.now()} ${round}`;
      let result;
      let itemId;
      if (tool === 'curl') {
        result = await run([
          'curl',
          '-sS',
          '-f',
          '-T',
          file,
          '-X',
          'POST',
          '-H',
          `Authorization: Bearer ${sandbox.apiKey}`,
          '-H',
          'Content-Type: application/octet-stream',
          '-H',
          `X-File-Name: ${encodeURIComponent(`${label}.pdf`)}`,
          '-H',
          `Idempotency-Key: ${curlKey(round)}`,
          `${sandbox.baseUrl}/library/files?note=${encodeURIComponent(note)}`,
        ]);
        if (result.code !== 0) throw new Error(`curl failed: ${firstLine(result.stderr)}`);
        itemId = JSON.parse(result.stdout).item.id;
      } else {
        ({ result, itemId } = await kagentRun(note));
        peaks.push(result.peakMiB);
      }
      times[tool].push(result.ms);
      // Gone again, so that every run makes the sandbox do the same work.
      await api(sandbox, 'DELETE', `/library/${itemId}`);
    }
    // What a script needs before curl to send a key made from all the file's bytes.
    const hashed = await run(['sha256sum', file]);
    if (hashed.code === 0) times.sha256sum.push(hashed.ms);
  }
  if (rerun) {
    // The same upload twice, the second from a fresh cache dir too (a CI job run again on another machine).
    const note = `bench ${label} rerun ${Date.now()}`;
    const { itemId } = await kagentRun(note);
    const again = await kagentRun(note, 'exists');
    times.rerun.push(again.result.ms);
    peaks.push(again.result.peakMiB);
    await api(sandbox, 'DELETE', `/library/${itemId}`);
  }
  rmSync(file, { force: true });
  const m = (values) => (values.length ? median(values) : NaN);
  return {
    curl: m(times.curl),
    cold: m(times.cold),
    rerun: m(times.rerun),
    sha256sum: m(times.sha256sum),
    peak: Math.max(...peaks),
    times,
  };
}

async function pacedSmallFiles(work) {
  const sandbox = await startSandbox(PACED_RATE);
  try {
    const dir = join(work, 'small');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < SMALL_FILES; i++)
      writeFileSync(
        join(dir, `note-${String(i).padStart(3, '0')}.md`),
        `# Note ${i}\n\n${randomBytes(24).toString('hex')}\n`,
      );
    // A fresh account: its rate window starts empty.
    const { apiKey } = await api(sandbox, 'POST', '/_sandbox/accounts', { key: null, body: { credits: 100_000 } });
    const configDir = join(work, 'paced-config');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({
        currentProfile: 'bench',
        profiles: { bench: { baseUrl: sandbox.baseUrl, apiKey, rateLimit: PACED_RATE } },
      }),
      { mode: 0o600 },
    );
    await api(sandbox, 'DELETE', '/_sandbox/stats', { key: null });
    const result = await run([process.execPath, bin, 'lib', 'upload', dir, '--json'], {
      env: {
        KAGENT_CONFIG_DIR: configDir,
        KAGENT_CACHE_DIR: join(work, 'paced-cache'),
        CI: '1',
        NO_COLOR: '1',
        KAGENT_API_KEY: '',
        KAGENT_BASE_URL: '',
      },
    });
    if (result.code !== 0)
      throw new Error(`kagent failed (exit ${result.code}): ${firstLine(result.stderr || result.stdout)}`);
    const uploaded = ndjson(result.stdout).filter((r) => r.status === 'uploaded').length;
    const stats = await api(sandbox, 'GET', '/_sandbox/stats', { key: null });
    const requests = Object.values(stats.requests).reduce((sum, n) => sum + n, 0);
    const allowedMs = (requests / PACED_RATE) * 60_000;
    return { ms: result.ms, allowedMs, requests, uploaded, throttled: stats.statuses['429'] ?? 0 };
  } finally {
    await sandbox.stop();
  }
}

// ---------------------------------------------------------------- run and report

export async function benchUploads({ runs = RUNS, log = console.log } = {}) {
  const rows = [['benchmark', 'curl', 'kagent', 'figure', 'target', 'result']];
  let failed = 0;
  const verdict = (ok) => {
    if (!ok) failed++;
    return ok ? 'PASS' : 'FAIL';
  };
  const skip = (name, why) => rows.push([name, '', '', '', '', `skipped: ${why}`]);
  const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
  // Judged ratios get three decimals: at two, a FAIL of 1.304 showed as "1.30×" beside "≤1.3×".
  const judged = (ratio) => `${ratio.toFixed(3)}×`;

  if (!existsSync(join(root, 'dist', 'cli.js'))) {
    skip('uploads', 'not built (run `npm run build`)');
  } else if (!['/usr/bin/curl', '/usr/local/bin/curl', '/bin/curl'].some((path) => existsSync(path))) {
    skip('uploads', 'curl not installed');
  } else {
    const work = mkdtempSync(join(tmpdir(), 'kagent-bench-upload-'));
    let sandbox;
    try {
      sandbox = await startSandbox(0);
      await api(sandbox, 'PATCH', '/_sandbox/account', {
        body: { credits: 100_000, limits: { fileBytes: 8 * GiB, storageBytes: 64 * GiB } },
      });

      const one = await bigUpload(sandbox, work, GiB, 'upload-1gib', runs);
      const ratio = one.cold / one.curl;
      rows.push([
        '1 GiB upload, cold: wall time',
        seconds(one.curl),
        seconds(one.cold),
        `${judged(ratio)} curl`,
        `≤${TARGET_RATIO}×`,
        verdict(ratio <= TARGET_RATIO),
      ]);
      rows.push([
        '1 GiB rerun: already there (info)',
        seconds(one.curl),
        seconds(one.rerun),
        `${(one.rerun / one.curl).toFixed(2)}× curl`,
        '',
        '',
      ]);
      if (!Number.isNaN(one.sha256sum)) {
        rows.push([
          '1 GiB: sha256sum, then curl -T (info)',
          seconds(one.curl + one.sha256sum),
          seconds(one.cold),
          `${(one.cold / (one.curl + one.sha256sum)).toFixed(2)}× that`,
          '',
          '',
        ]);
      }
      const list = (values) => values.map((ms) => (ms / 1000).toFixed(2)).join(' ');
      rows.push(['1 GiB runs (info)', list(one.times.curl), list(one.times.cold), '', '', '']);
      rows.push([
        '1 GiB upload: kagent peak RSS',
        '',
        '',
        `${one.peak.toFixed(1)} MiB`,
        `≤${TARGET_PEAK_MIB} MiB`,
        verdict(one.peak <= TARGET_PEAK_MIB),
      ]);

      if (process.env.BENCH_SKIP_4G === '1') {
        skip('4 GiB upload', 'BENCH_SKIP_4G=1');
      } else {
        const four = await bigUpload(sandbox, work, 4 * GiB, 'upload-4gib', 1, { rerun: false });
        rows.push([
          '4 GiB upload, cold: wall time (info)',
          seconds(four.curl),
          seconds(four.cold),
          `${(four.cold / four.curl).toFixed(2)}× curl`,
          '',
          '',
        ]);
        rows.push([
          '4 GiB upload: kagent peak RSS',
          '',
          '',
          `${four.peak.toFixed(1)} MiB`,
          `≤${TARGET_PEAK_MIB} MiB`,
          verdict(four.peak <= TARGET_PEAK_MIB),
        ]);
      }
    } catch (error) {
      skip('large uploads', firstLine(error instanceof Error ? error.message : error));
    } finally {
      await sandbox?.stop();
    }

    try {
      const paced = await pacedSmallFiles(work);
      const ratio = paced.ms / paced.allowedMs;
      rows.push([
        `${SMALL_FILES} files at ${PACED_RATE}/min: wall time`,
        '',
        seconds(paced.ms),
        `${judged(ratio)} the ${seconds(paced.allowedMs)} ${paced.requests} requests need`,
        `≤${TARGET_PACED}×`,
        verdict(ratio <= TARGET_PACED && paced.uploaded === SMALL_FILES),
      ]);
      rows.push([
        `${SMALL_FILES} files at ${PACED_RATE}/min: 429 answers`,
        '',
        '',
        String(paced.throttled),
        '0',
        verdict(paced.throttled === 0),
      ]);
    } catch (error) {
      skip(`${SMALL_FILES} files at ${PACED_RATE}/min`, firstLine(error instanceof Error ? error.message : error));
    }
    rmSync(work, { recursive: true, force: true });
  }

  const widths = rows[0].map((_, column) => Math.max(...rows.map((line) => line[column].length)));
  log('\nUploads (kagent lib upload vs curl -T, sandbox in a child process)');
  for (const line of rows)
    log(
      line
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    );
  log(
    `\nMedians of ${runs} runs for 1 GiB (one for 4 GiB), curl and kagent taking turns; every run sends a new key and its item is deleted after.`,
  );
  log(
    'Cold: a fresh cache dir. Rerun: the same upload once more, from a fresh cache dir (the file is read whole to check the answer).',
  );
  log(
    `peak RSS is VmHWM of the kagent process; load average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} on ${availableParallelism()} cores.`,
  );
  return failed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const failed = await benchUploads();
  process.exitCode = failed ? 1 : 0;
}
