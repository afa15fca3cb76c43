#!/usr/bin/env node
// Start-up of the built CLI on every Node kagent supports: this machine's Node
// and those scripts/nodes.mjs installs (22, 24, 26). For each Node, its own
// `node -e 0` is the baseline, run in rotation with the rows in the same rounds;
// medians of BENCH_RUNS runs (default 21) after BENCH_WARMUP rounds (default 2).
//
//   node test/bench/startup.mjs          (npm run bench runs it too)
//   BENCH_NODES=20,26 node test/bench/startup.mjs   only these majors
//   BENCH_BIN=../other/bin/kagent.js node test/bench/startup.mjs   another build
//
// `me --json` runs against the sandbox (in this process) with a fresh cache dir
// per run, so the file that shares the 60/min budget between processes never
// paces it; the compile cache inside that dir is a link to one kept for the whole
// bench, as a user's is kept between runs.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodes } from '../../scripts/nodes.mjs';
import { runOnce, timeInRotation } from './timing.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
// BENCH_BIN measures another build (another checkout's bin/kagent.js) against the same sandbox: before and after.
const bin = process.env.BENCH_BIN || join(root, 'bin', 'kagent.js');

const BARE_GET = `const http = require('node:http');
http.get(process.env.KAGENT_BASE_URL + '/me', { headers: { authorization: 'Bearer ' + process.env.KAGENT_API_KEY } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (d) => (body += d));
  res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n', () => process.exit(0)));
});`;

/**
 * The start-up budget (the owner's guard, issue 39): ratios to `node -e 0` on the same Node;
 * `meOverBareGet`, `kagent me --json` to a bare node:http GET of /me that parses and prints the
 * JSON (the floor a Node CLI cannot go under), looser on Node 20 (no compile cache).
 * `npm run bench` fails when a row is over it.
 */
// The guard (start-up is a guard, not a goal): --version and --help against `node -e 0`, and
// `me --json` against the bare GET on the same Node (reported against `node -e 0` too, not judged).
export const STARTUP_TARGETS = { version: 1.15, help: 1.2, meOverBareGet: 1.85, meOverBareGetNode20: 2.15 };

/** Measures every installed Node; prints one table and returns how many rows missed their target. */
export async function benchStartup({
  runs = Number(process.env.BENCH_RUNS ?? 21),
  warmup = Number(process.env.BENCH_WARMUP ?? 2),
  install = true,
} = {}) {
  if (!existsSync(join(root, 'dist', 'cli.js'))) {
    console.log('\nStart-up on every Node: skipped: not built (run `npm run build`)');
    return 0;
  }
  const only = process.env.BENCH_NODES?.split(',').map(Number);
  const all = nodes({ install }).filter((node) => !only || only.includes(node.major));
  const { startSandbox } = await import(pathToFileURL(join(root, 'dist', 'sandbox.js')).href);
  const sandbox = await startSandbox({ rateLimit: 1_000_000, quiet: true });
  const home = mkdtempSync(join(tmpdir(), 'kagent-bench-startup-'));
  const rows = [];
  try {
    for (const node of all) {
      const cache = join(home, `cache-${node.major}`);
      const env = { KAGENT_CONFIG_DIR: join(home, 'config'), KAGENT_CACHE_DIR: cache, NO_COLOR: '1', CI: '1' };
      let run = 0;
      const meEnv = () => {
        const dir = join(home, `me-${node.major}-${++run}`);
        mkdirSync(dir, { recursive: true });
        mkdirSync(join(cache, 'compile-cache'), { recursive: true });
        symlinkSync(join(cache, 'compile-cache'), join(dir, 'compile-cache'));
        return { ...env, KAGENT_CACHE_DIR: dir, KAGENT_BASE_URL: sandbox.baseUrl, KAGENT_API_KEY: sandbox.apiKey };
      };
      const commands = [
        { name: 'node -e 0', argv: [node.path, '-e', '0'] },
        {
          name: 'kagent --version',
          key: 'version',
          argv: [node.path, bin, '--version'],
          env,
          check: (r) => /^kagent version \d+\.\d+\.\d+/.test(r.stdout),
        },
        {
          name: 'kagent --help',
          key: 'help',
          argv: [node.path, bin, '--help'],
          env,
          check: (r) => /Usage|usage/.test(r.stdout),
        },
        {
          name: 'kagent me --json (one GET)',
          key: 'me',
          argv: [node.path, bin, 'me', '--json'],
          env: meEnv,
          check: (r) => r.stdout.trim().startsWith('{'),
        },
        // The floor `me --json` is judged against: the same GET by a bare script with Node's own client
        // that parses the JSON and prints it as kagent does, nothing else (no arguments, config, pacing).
        {
          name: 'bare node:http GET (reference)',
          key: 'bareGet',
          argv: [node.path, '-e', BARE_GET],
          env: meEnv,
          check: (r) => r.stdout.trim().startsWith('{'),
        },
      ];
      for (const command of commands) {
        const result = await runOnce(command.argv, command.env);
        if (result.code !== 0 || (command.check && !command.check(result)))
          throw new Error(
            `${command.name} on Node ${node.version}: exit ${result.code}: ${(result.stderr || result.stdout).slice(0, 200)}`,
          );
      }
      const results = await timeInRotation(commands, { runs, warmup });
      for (const result of results) {
        const target = result.key && STARTUP_TARGETS[result.key];
        rows.push({ node: node.version, name: result.name, ms: result.median, ratio: result.ratio, target });
      }
      const me = results.find((result) => result.key === 'me');
      const bare = results.find((result) => result.key === 'bareGet');
      rows.push({
        node: node.version,
        name: '  me --json ÷ bare GET',
        ms: me.median - bare.median,
        ratio: me.median / bare.median,
        target: node.major <= 20 ? STARTUP_TARGETS.meOverBareGetNode20 : STARTUP_TARGETS.meOverBareGet,
        difference: true,
      });
    }
  } finally {
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
  const table = [['node', 'benchmark', 'median ms', 'ratio', 'target', 'result']];
  let failed = 0;
  for (const row of rows) {
    const verdict = row.target === undefined ? '' : row.ratio <= row.target ? 'PASS' : 'FAIL';
    if (verdict === 'FAIL') failed++;
    table.push([
      row.node,
      row.name,
      row.difference ? `+${row.ms.toFixed(1)}` : row.ms.toFixed(1),
      `${row.ratio.toFixed(3)}×`,
      row.target === undefined ? '' : `≤${row.target}×`,
      verdict,
    ]);
  }
  const widths = table[0].map((_, column) => Math.max(...table.map((line) => line[column].length)));
  console.log(
    `\nStart-up on every Node (ratio to \`node -e 0\` on the same Node, same rounds)${process.env.BENCH_BIN ? `: ${bin}` : ''}`,
  );
  for (const line of table)
    console.log(
      line
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    );
  console.log(`\n${runs} timed runs each (after ${warmup} warm-up rounds), in rotation with the baseline.`);
  return failed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = (await benchStartup()) > 0 ? 1 : 0;
}
