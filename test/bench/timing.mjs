// What every benchmark times with: one spawned run (wall time from spawn to
// close, with its output), a median, and runs in rotation so a machine that
// gets busier or quieter during a bench affects every command alike.
import { spawn } from 'node:child_process';

/**
 * This process's environment without Node's own variables (NODE_OPTIONS,
 * NODE_EXTRA_CA_CERTS, NODE_COMPILE_CACHE…), then `extra`. Inherited, they change
 * how every Node measured starts: NODE_EXTRA_CA_CERTS alone makes Node 20 read
 * and parse a CA bundle before any script (80 ms on this project's machine),
 * which hides a command's own cost inside both sides of a ratio. A benchmark that
 * wants one of them sets it in `extra`.
 */
export function benchEnv(extra = {}) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('NODE_')));
  return { ...inherited, ...extra };
}

/** One run of argv; env is added to this process's, less Node's own variables (benchEnv; a function makes a fresh env per run). */
export function runOnce(argv, env = {}) {
  const runEnv = benchEnv(typeof env === 'function' ? env() : env);
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), { env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ ms: NaN, code: -1, stdout, stderr: String(error) }));
    child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code, stdout, stderr }));
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Times every command `runs` times in rotation, after `warmup` untimed rounds; the
 * first command is the baseline the ratios are to. Async spawns, so an in-process
 * server (the sandbox) keeps answering.
 */
export async function timeInRotation(commands, { runs, warmup }) {
  const times = commands.map(() => []);
  for (let round = 0; round < warmup + runs; round++) {
    for (const [i, command] of commands.entries()) {
      const { ms } = await runOnce(command.argv, command.env);
      if (round >= warmup) times[i].push(ms);
    }
  }
  const baseline = median(times[0]);
  return commands.map((command, i) => ({ ...command, median: median(times[i]), ratio: median(times[i]) / baseline }));
}
