// Benchmark: following a task that takes 60 s of sandbox time sends at most 20
// requests and reports completion within one poll interval of it happening.
//
// The follower (src/follow/task.ts) runs in-process against the sandbox over
// real HTTP on loopback, with a virtual clock: every sleep of the follower (and
// of the client's pacer) advances the sandbox clock by the same amount, so 60 s
// of sandbox time pass in well under a second and the timings are exact, not
// noisy. The sandbox's real-time drift is switched off (speed 1e-9) so only the
// follower's own sleeps move time. Requests are counted by the sandbox itself
// (its per-operation stats). For comparison the same task is also followed with
// the polling helper's defaults (1 s after every change, growing to 10 s).
//
// Run alone:  node test/bench/task-follow.mjs     (after `npm run build` is not needed: it bundles src itself)
// From run.mjs: import { benchTaskFollow } from './task-follow.mjs'; await benchTaskFollow();
/* global setImmediate, AbortController */
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const LIMIT_REQUESTS = 20;

async function loadModules() {
  const outdir = `${root}node_modules/.cache/kagent-bench`;
  mkdirSync(outdir, { recursive: true });
  const outfile = `${outdir}/task-follow.mjs`;
  await build({
    stdin: {
      contents: [
        "export { startSandbox } from './src/sandbox/index.ts';",
        "export { createApiClient } from './src/api/client.ts';",
        "export { followTask, TASK_POLL, taskFingerprint } from './src/follow/task.ts';",
        "export { isActiveStatus } from './src/views/task.ts';",
        "export { poll } from './src/http/poll.ts';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
      sourcefile: 'bench-entry.ts',
    },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    banner: {
      js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);
}

/** Sleeps that move the sandbox clock instead of waiting. */
function virtualClock(world) {
  const sleeps = [];
  return {
    sleeps,
    now: () => world.now(),
    sleep(ms, signal) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        sleeps.push(ms);
        world.advance(Math.max(0, ms));
        setImmediate(resolve);
      });
    },
  };
}

function quietContext(client, clock) {
  const lines = [];
  const stderr = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  const stdout = new Writable({ write: (_c, _e, cb) => cb() });
  return {
    lines,
    ctx: {
      io: {
        stdin: process.stdin,
        stdout,
        stderr,
        stdinIsTTY: false,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        color: false,
        colorStderr: false,
        canPrompt: false,
        columns: 100,
        env: {},
      },
      flags: { json: false, quiet: false, color: false, input: false, yes: false, debug: false, insecure: false },
      config: {},
      api: async () => client,
      clock,
      signal: new AbortController().signal,
      version: 'bench',
    },
  };
}

async function scenario(mod, name, request, follow) {
  const sandbox = await mod.startSandbox({
    quiet: true,
    autoAdvance: false,
    speed: 1e-9,
    rateLimit: 60,
    startTime: Date.UTC(2026, 0, 15, 9, 0, 0),
  });
  try {
    const clock = virtualClock(sandbox.world);
    const client = mod.createApiClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      userAgent: 'kagent-bench',
      ratePerMinute: 60,
      clock,
    });
    const created = await client.call('createWatch', { body: request });
    for (const table of [sandbox.stats.requests, sandbox.stats.executions])
      for (const key of Object.keys(table)) delete table[key];
    const started = sandbox.world.now();
    const { ctx, lines } = quietContext(client, clock);
    const task = await follow(ctx, created.taskId, clock);
    const seen = sandbox.world.now();
    const finished = Date.parse(task.finishedAt);
    const requests = sandbox.stats.requests.getTask ?? 0;
    const lastInterval = clock.sleeps[clock.sleeps.length - 1] ?? 0;
    return {
      name,
      status: task.status,
      milestones: task.milestones.length,
      taskSeconds: (finished - Date.parse(task.createdAt)) / 1000,
      followedSeconds: (seen - started) / 1000,
      requests,
      otherRequests: Object.entries(sandbox.stats.requests)
        .filter(([op]) => op !== 'getTask')
        .reduce((n, [, c]) => n + c, 0),
      lagSeconds: (seen - finished) / 1000,
      intervalSeconds: lastInterval / 1000,
      logLines: lines.length,
    };
  } finally {
    await sandbox.close();
  }
}

export async function benchTaskFollow({ log = console.log } = {}) {
  const mod = await loadModules();
  const topic = { intent: 'EU rules on AI chips export', cadence: 'daily' };
  const sources = {
    intent: 'Twenty sources at once',
    type: 'sources',
    urls: Array.from({ length: 20 }, (_, i) => `https://source${i + 1}.example.com/feed`),
  };
  const follower = (ctx, id) => mod.followTask(ctx, id);
  const defaults = (ctx, id, clock) =>
    mod.poll({
      fetch: async () => (await ctx.api()).call('getTask', { params: { id } }),
      isDone: (t) => !mod.isActiveStatus(t.status),
      fingerprint: mod.taskFingerprint,
      clock,
    });
  const results = [
    await scenario(mod, 'follower: watch set-up, topic (5 milestones)', topic, follower),
    await scenario(mod, 'follower: watch set-up, 20 sources (24 milestones)', sources, follower),
    await scenario(mod, 'poll.ts defaults (1 s reset), topic', topic, defaults),
    await scenario(mod, 'poll.ts defaults (1 s reset), 20 sources', sources, defaults),
  ];
  log(
    `\nTask follower (virtual time against the sandbox; floor ${mod.TASK_POLL.minMs / 1000} s, ×${mod.TASK_POLL.factor}, max ${mod.TASK_POLL.maxMs / 1000} s)`,
  );
  log(
    '  scenario                                              task    GET /tasks  end seen after  interval then  verdict',
  );
  let ok = true;
  for (const r of results) {
    const own = r.name.startsWith('follower');
    const pass = r.requests <= LIMIT_REQUESTS && r.lagSeconds <= r.intervalSeconds && r.status === 'done';
    if (own) ok &&= pass;
    log(
      `  ${r.name.padEnd(52)}  ${`${r.taskSeconds}s`.padStart(5)}  ${String(r.requests).padStart(10)}  ${`${r.lagSeconds.toFixed(1)}s`.padStart(14)}  ${`${r.intervalSeconds.toFixed(1)}s`.padStart(13)}  ${own ? (pass ? 'ok' : 'FAIL') : r.requests <= LIMIT_REQUESTS ? '(ok)' : '(over)'}`,
    );
  }
  log(
    `  target: at most ${LIMIT_REQUESTS} requests for a 60 s task, completion seen within one poll interval: ${ok ? 'met' : 'NOT MET'}`,
  );
  if (process.env.BENCH_REALTIME === '1') {
    const real = await realTime(mod);
    log(
      `  built binary, real time (speed 1): task ${real.taskSeconds}s, ${real.requests} GET /tasks, process ended ${real.lagSeconds.toFixed(1)}s after the task (interval ≤ ${mod.TASK_POLL.maxMs / 1000}s)`,
    );
    ok &&= real.requests <= LIMIT_REQUESTS && real.lagSeconds <= mod.TASK_POLL.maxMs / 1000 + 1;
  } else {
    log('  (BENCH_REALTIME=1 also follows a 60 s task with the built binary in real time)');
  }
  return { ok, results };
}

/** `kagent task show --follow` from the built binary against a sandbox in real time: about 65 s. */
async function realTime(mod) {
  const { spawn } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const sandbox = await mod.startSandbox({ quiet: true, rateLimit: 60 });
  const home = mkdtempSync(`${tmpdir()}/kagent-bench-follow-`);
  try {
    const client = mod.createApiClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      userAgent: 'kagent-bench',
      ratePerMinute: 60,
    });
    const created = await client.call('createWatch', { body: { intent: 'EU rules on AI chips export' } });
    for (const key of Object.keys(sandbox.stats.requests)) delete sandbox.stats.requests[key];
    const code = await new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [`${root}bin/kagent.js`, 'task', 'show', created.taskId, '--follow', '--json'],
        {
          env: {
            PATH: process.env.PATH,
            HOME: home,
            KAGENT_CONFIG_DIR: home,
            KAGENT_BASE_URL: sandbox.baseUrl,
            KAGENT_API_KEY: sandbox.apiKey,
          },
          stdio: ['ignore', 'ignore', 'ignore'],
        },
      );
      child.on('close', resolve);
    });
    const ended = sandbox.world.now();
    const task = await client.call('getTask', { params: { id: created.taskId } });
    if (code !== 0) throw new Error(`kagent task show --follow exited ${code}`);
    return {
      taskSeconds: (Date.parse(task.finishedAt) - Date.parse(task.createdAt)) / 1000,
      requests: sandbox.stats.requests.getTask ?? 0,
      lagSeconds: (ended - Date.parse(task.finishedAt)) / 1000,
    };
  } finally {
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { ok } = await benchTaskFollow();
  process.exitCode = ok ? 0 : 1;
}
