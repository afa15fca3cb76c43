// Peak resident memory of a no-op `kagent lib sync` (nothing changed) at 1,000,
// 5,000 and 20,000 files, beside `kagent lib list --all --json` of the same
// space (the listing alone), against the sandbox in this process. Peak RSS is
// the process's VmHWM (Linux /proc), read until it exits. The first sync of each
// folder is the set-up, not measured. Reported, not judged: what grows with the
// folder, and by how much per file.
//
// Run alone:      node test/bench/sync-memory.mjs        (after `npm run build`)
//                 BENCH_SYNC_MEMORY_FILES=1000,5000 to choose the sizes
// From run.mjs:   const { benchSyncMemory } = await import('./sync-memory.mjs');
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { benchAccount, bin, manyFilesDir, startBenchSandbox, writeFolder } from './lib-account.mjs';
import { benchEnv } from './timing.mjs';
const SIZES = (process.env.BENCH_SYNC_MEMORY_FILES ?? '1000,5000,20000').split(',').map(Number);

/** A run still going after this long is killed and reported (a bench that hangs measures nothing). */
const DEADLINE_MS = Number(process.env.BENCH_SYNC_MEMORY_TIMEOUT ?? 900) * 1000;

/**
 * Runs the binary; resolves with its exit code (null and `timedOut` when it was killed at the deadline),
 * wall time and peak resident memory (MiB). It resolves once the process has exited and its pipes
 * closed, or a second after the exit if something else still holds them open.
 */
function run(args, env) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [bin, ...args], { env: benchEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let peakKiB = 0;
    let stderr = '';
    let timedOut = false;
    const look = () => {
      try {
        const kib = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peakKiB = Math.max(peakKiB, kib);
      } catch {
        // gone already
      }
    };
    const timer = setInterval(look, 20);
    const deadline = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, DEADLINE_MS);
    let done = false;
    const finish = (code) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      clearTimeout(deadline);
      resolve({ code, timedOut, ms: Date.now() - started, peakMiB: peakKiB / 1024, stderr });
    };
    child.stdout.resume();
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // 'exit' comes before the pipes close: one last look while /proc still has it.
    child.on('exit', (code) => {
      look();
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code);
      }, 1000).unref();
    });
    child.on('close', (code) => finish(code));
  });
}

async function measure(sandbox, work, files) {
  const home = join(work, String(files));
  const { env } = await benchAccount(sandbox, home, { credits: 1e9, space: 'Handbook' });
  const dir = writeFolder(join(home, 'docs'), files, {
    folders: 20,
    text: (i) => `# Page ${i}\n\n${'Some text. '.repeat(10)}${i}\n`,
  });
  const sync = ['lib', 'sync', dir, '--space', 'Handbook', '--concurrency', '8'];
  const first = await run(sync, env);
  if (first.code !== 0)
    throw new Error(
      `the first sync of ${files} ${first.timedOut ? 'timed out' : 'failed'}: ${first.stderr.slice(-300)}`,
    );
  const noop = await run(sync, env);
  const list = await run(['lib', 'list', '--space', 'Handbook', '--kind', 'file', '--all', '--json'], env);
  rmSync(home, { recursive: true, force: true });
  return { files, first, noop, list };
}

export async function benchSyncMemory({ log = console.log } = {}) {
  if (!existsSync('/proc/self/status')) {
    log('\nlib sync memory: skipped (no /proc to read peak memory from)');
    return 0;
  }
  log(`\nlib sync, no-op: peak resident memory by folder size (Node ${process.version})`);
  const work = mkdtempSync(join(manyFilesDir(), 'kagent-bench-sync-memory-'));
  // The uploads' blobs beside the folders, on the same (memory) file system, removed with them.
  const sandbox = await startBenchSandbox({ blobDir: join(work, 'blobs') });
  const rows = [];
  try {
    for (const files of SIZES) {
      const m = await measure(sandbox, work, files);
      rows.push(m);
      log(
        `  ${String(files).padStart(6)} files: no-op sync ${m.noop.peakMiB.toFixed(0)} MiB (${(m.noop.ms / 1000).toFixed(1)} s, ${m.noop.timedOut ? 'TIMED OUT' : `exit ${m.noop.code}`}); ` +
          `lib list --all --json ${m.list.peakMiB.toFixed(0)} MiB (${(m.list.ms / 1000).toFixed(1)} s); first sync ${m.first.peakMiB.toFixed(0)} MiB (${(m.first.ms / 1000).toFixed(1)} s)`,
      );
    }
  } finally {
    const closing = Date.now();
    await sandbox.close();
    const closed = Date.now();
    rmSync(work, { recursive: true, force: true });
    log(
      `  teardown: the sandbox closed in ${((closed - closing) / 1000).toFixed(1)} s, the folders removed in ${((Date.now() - closed) / 1000).toFixed(1)} s`,
    );
  }
  if (rows.length > 1) {
    const [a, b] = [rows[0], rows.at(-1)];
    const perFile = (x, y) => (((y - x) * 1024 * 1024) / (b.files - a.files) / 1024).toFixed(1);
    log(
      `  growth per file from ${a.files} to ${b.files}: no-op sync ${perFile(a.noop.peakMiB, b.noop.peakMiB)} KiB, ` +
        `lib list ${perFile(a.list.peakMiB, b.list.peakMiB)} KiB, first sync ${perFile(a.first.peakMiB, b.first.peakMiB)} KiB`,
    );
  }
  return rows.some((r) => r.noop.code !== 0) ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = (await benchSyncMemory()) > 0 ? 1 : 0;
}
