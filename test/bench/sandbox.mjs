// Benchmark of the sandbox itself, each part in its own child process so that
// its memory is the sandbox's alone:
//   1. throughput: GET /spaces with the rate limit off, autocannon for 5 s with
//      a few connections on loopback — target at least 2,000 requests/second;
//   2. --state under load: 12,000 docs, 4 clients writing (each answer waits for
//      its fsync'd journal line) and 4 reading GET /docs for 5 s — answers must
//      not stall behind the disk (p97.5 of reads ≤ 50 ms, of writes ≤ 200 ms);
//   3. uploads: a 1 GiB file (and a 4 GiB one; BENCH_SKIP_4G=1 leaves it out)
//      sent with `curl -T FILE -X POST` — the sandbox's peak resident memory
//      (VmHWM from /proc/<pid>/status) must stay under 150 MB.
// The upload is a sparse file starting with a PDF header: accepted as a PDF,
// too large to parse, so it exercises streaming, hashing and storing only.
//
// Run alone:      node test/bench/sandbox.mjs   (BENCH_SANDBOX_ONLY=state for one part)
// From run.mjs:   const { benchSandbox } = await import('./sandbox.mjs'); await benchSandbox();
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GiB = 1024 ** 3;
const TARGET_RPS = 2000;
const TARGET_RSS_MB = 150;

/** The sandbox module, bundled from src on the fly: what is measured is the current code, built or not. */
async function sandboxModule() {
  const { build } = await import('esbuild');
  const outdir = join(root, 'node_modules', '.cache', 'kagent-bench');
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, 'sandbox-bench.mjs');
  await build({
    entryPoints: [join(root, 'src', 'sandbox', 'index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return pathToFileURL(outfile).href;
}

/** Starts the sandbox in a child process; resolves once it listens. `docs`: that many docs made first. */
function startChild(moduleUrl, options, docs = 0) {
  const code = `
    const { startSandbox } = await import(${JSON.stringify(moduleUrl)});
    const sandbox = await startSandbox(${JSON.stringify(options)});
    const account = sandbox.world.state.accounts[sandbox.accountId];
    for (let i = 0; i < ${docs}; i++) {
      const at = new Date().toISOString();
      account.docs.push({ id: 'doc_bench' + i, title: 'Bench doc ' + i, body: '# Doc ' + i + '\\n\\n' + 'lorem ipsum dolor sit amet '.repeat(20), revision: 1, origin: 'api', folderId: null, createdAt: at, updatedAt: at, spaceId: account.spaces[0].id });
    }
    await sandbox.world.commit();
    process.stdout.write(JSON.stringify({ baseUrl: sandbox.baseUrl, origin: sandbox.origin, apiKey: sandbox.apiKey }) + '\\n');
    process.on('SIGTERM', async () => { await sandbox.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n')) resolve({ child, ...JSON.parse(line) });
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code} before listening`)));
  });
}

function stopChild(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Resident memory figures of a process, in MB. */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMB: kb('VmRSS') / 1024, peakMB: kb('VmHWM') / 1024 };
}

async function throughput(moduleUrl) {
  const { child, baseUrl, apiKey } = await startChild(moduleUrl, { port: 0, rateLimit: 0, quiet: true });
  try {
    const autocannon = (await import('autocannon')).default;
    const url = `${baseUrl}/spaces`;
    const headers = { authorization: `Bearer ${apiKey}` };
    await autocannon({ url, headers, connections: 4, duration: 1 }); // warm-up: JIT, keep-alive sockets
    const result = await autocannon({ url, headers, connections: 8, duration: 5 });
    return {
      name: 'GET /spaces, rate limit off (autocannon, 8 connections, 5 s)',
      value: `${Math.round(result.requests.average)} req/s`,
      detail: `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx, ${result.errors} errors; sandbox peak RSS ${memory(child.pid).peakMB.toFixed(0)} MB`,
      target: `≥ ${TARGET_RPS} req/s`,
      pass: result.requests.average >= TARGET_RPS && result.non2xx === 0 && result.errors === 0,
    };
  } finally {
    await stopChild(child);
  }
}

/** A sparse file of `bytes` that starts like a PDF. */
function sparsePdf(path, bytes) {
  const fd = openSync(path, 'w');
  writeSync(fd, Buffer.from('%PDF-1.7\n% kagent sandbox benchmark\n'));
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

async function upload(moduleUrl, bytes, dir) {
  const label = `${bytes / GiB} GiB`;
  if (spawnSync('curl', ['--version']).status !== 0) return { name: `upload ${label}`, skipped: 'curl not installed' };
  const { child, baseUrl, origin, apiKey } = await startChild(moduleUrl, {
    port: 0,
    rateLimit: 0,
    quiet: true,
    blobDir: join(dir, 'blobs'),
  });
  try {
    // Plan limits large enough for the file.
    const { request } = await import('undici');
    const res = await request(`${origin}/_sandbox/account`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ limits: { fileBytes: 8 * GiB, storageBytes: 64 * GiB } }),
    });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`could not raise the plan limits: ${res.statusCode}`);
    const file = join(dir, `upload-${bytes}.pdf`);
    sparsePdf(file, bytes);
    const before = memory(child.pid);
    let sampledMax = before.rssMB;
    const sampler = setInterval(() => (sampledMax = Math.max(sampledMax, memory(child.pid).rssMB)), 100);
    const curl = await new Promise((resolve) => {
      const args = [
        '-sS',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{time_total} %{speed_upload}',
        '-T',
        file,
        '-X',
        'POST',
      ];
      args.push(
        '-H',
        `Authorization: Bearer ${apiKey}`,
        '-H',
        'Content-Type: application/octet-stream',
        '-H',
        `X-File-Name: ${encodeURIComponent(`big ${label}.pdf`)}`,
      );
      args.push(`${baseUrl}/library/files`);
      const run = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      run.stdout.on('data', (chunk) => (out += chunk));
      run.on('close', () => resolve(out.trim()));
    });
    clearInterval(sampler);
    const after = memory(child.pid);
    const [status, seconds, speed] = curl.split(' ');
    rmSync(file, { force: true });
    return {
      name: `upload ${label} with curl -T (sandbox resident memory)`,
      value: `peak ${after.peakMB.toFixed(0)} MB`,
      detail: `HTTP ${status} in ${Number(seconds).toFixed(1)} s (${(Number(speed) / 1e6).toFixed(0)} MB/s); RSS before ${before.rssMB.toFixed(0)} MB, sampled max ${sampledMax.toFixed(0)} MB`,
      target: `< ${TARGET_RSS_MB} MB`,
      pass: status === '201' && after.peakMB < TARGET_RSS_MB,
    };
  } finally {
    await stopChild(child);
  }
}

async function stateUnderLoad(moduleUrl, dir) {
  const docs = 12_000;
  const { child, baseUrl, apiKey } = await startChild(
    moduleUrl,
    { port: 0, rateLimit: 0, quiet: true, stateFile: join(dir, 'state.json') },
    docs,
  );
  try {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent({ connections: 8 });
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const latency = { write: [], read: [] };
    let stop = false;
    const writer = async (c) => {
      for (let i = 0; !stop; i++) {
        const started = performance.now();
        const res = await request(`${baseUrl}/docs`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title: `w${c}-${i}`, markdown: 'x' }),
          dispatcher,
        });
        await res.body.dump();
        if (res.statusCode !== 201) throw new Error(`POST /docs: ${res.statusCode}`);
        latency.write.push(performance.now() - started);
      }
    };
    const reader = async () => {
      while (!stop) {
        const started = performance.now();
        const res = await request(`${baseUrl}/docs?limit=20`, { headers, dispatcher });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`GET /docs: ${res.statusCode}`);
        latency.read.push(performance.now() - started);
      }
    };
    const started = performance.now();
    const clients = [0, 1, 2, 3].map(writer).concat([0, 1, 2, 3].map(reader));
    await new Promise((resolve) => setTimeout(resolve, 5000));
    stop = true;
    await Promise.all(clients);
    const seconds = (performance.now() - started) / 1000;
    await dispatcher.close();
    const at = (list, q) =>
      [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(q * list.length))] ?? NaN;
    const readP975 = at(latency.read, 0.975);
    const writeP975 = at(latency.write, 0.975);
    const f = (ms) => `${ms.toFixed(1)} ms`;
    return {
      name: `--state with ${docs.toLocaleString('en')} docs: 4 clients writing, 4 reading (5 s)`,
      value: `reads p97.5 ${f(readP975)}, writes p97.5 ${f(writeP975)}`,
      detail: `${Math.round(latency.write.length / seconds)} writes/s (p50 ${f(at(latency.write, 0.5))}, max ${f(at(latency.write, 1))}), ${Math.round(latency.read.length / seconds)} reads/s (p50 ${f(at(latency.read, 0.5))}, max ${f(at(latency.read, 1))}); every write answered after its journal line was fsync'd`,
      target: 'reads p97.5 ≤ 50 ms, writes p97.5 ≤ 200 ms',
      pass: readP975 <= 50 && writeP975 <= 200,
    };
  } finally {
    await stopChild(child);
  }
}

export async function benchSandbox() {
  const moduleUrl = await sandboxModule();
  const dir = mkdtempSync(join(tmpdir(), 'kagent-sandbox-bench-'));
  const rows = [];
  try {
    // BENCH_SANDBOX_ONLY=throughput|state|upload runs one part alone.
    const only = process.env.BENCH_SANDBOX_ONLY;
    if (!only || only === 'throughput') rows.push(await throughput(moduleUrl));
    if (!only || only === 'state') rows.push(await stateUnderLoad(moduleUrl, dir));
    if (!only || only === 'upload') {
      rows.push(await upload(moduleUrl, GiB, dir));
      if (process.env.BENCH_SKIP_4G !== '1') rows.push(await upload(moduleUrl, 4 * GiB, dir));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('\nSandbox');
  for (const row of rows) {
    if (row.skipped) console.log(`  ${row.name}: skipped (${row.skipped})`);
    else
      console.log(
        `  ${row.pass ? 'PASS' : 'FAIL'}  ${row.name}: ${row.value} (target ${row.target})\n        ${row.detail}`,
      );
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await benchSandbox();
  process.exitCode = rows.some((row) => row.pass === false) ? 1 : 0;
}
