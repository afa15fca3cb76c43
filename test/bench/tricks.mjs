#!/usr/bin/env node
// What each start-up trick of scripts/build.mjs gains, paired: the bundle is
// built once with every trick and once without each one (KAGENT_BUILD_WITHOUT),
// and the two builds run the same command in alternation, BENCH_RUNS times
// (default 31), on each Node of BENCH_NODES (default 22 and 26). The gain is the
// median of the per-round differences (without − with), so a machine that gets
// busier during the run slows both sides alike. docs/performance.md records the
// figures; a trick that gains under 3 ms on both Nodes goes.
//
//   node test/bench/tricks.mjs                     every trick
//   BENCH_TRICKS=sets,static-imports node test/bench/tricks.mjs
//
// Each trick is timed on the command it is for: `kagent me --json` (every API
// call), `--version` and `--help`, and
// `doc show` in a terminal (the Markdown renderer; run under script(1) for a pty).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodes } from '../../scripts/nodes.mjs';
import { median, runOnce } from './timing.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Each trick (its name in scripts/build.mjs) and the commands it is timed on. */
export const TRICKS = {
  'without-highlighter': ['markdown'],
  front: ['version', 'help', 'me'],
};

/** Builds the bundle into dir/dist (without the tricks named), with a launcher beside it. */
function buildInto(dir, without) {
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    env: { ...process.env, KAGENT_BUILD_OUT: join(dir, 'dist'), KAGENT_BUILD_WITHOUT: without.join(',') },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`build without ${without.join(',') || 'nothing'} failed: ${run.stderr}`);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  copyFileSync(join(root, 'bin', 'kagent.js'), join(dir, 'bin', 'kagent.js'));
  copyFileSync(join(root, 'bin', 'package.json'), join(dir, 'bin', 'package.json'));
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  return join(dir, 'bin', 'kagent.js');
}

async function main() {
  const runs = Number(process.env.BENCH_RUNS ?? 31);
  const majors = (process.env.BENCH_NODES ?? '22,26').split(',').map(Number);
  const tricks = process.env.BENCH_TRICKS ? process.env.BENCH_TRICKS.split(',') : Object.keys(TRICKS);
  // Inside the checkout, so that the builds find node_modules (jq-wasm, unpdf) as dist/ does.
  const work = mkdtempSync(join(root, '.bench-tricks-'));
  const home = mkdtempSync(join(tmpdir(), 'kagent-bench-tricks-'));
  const { startSandbox } = await import(pathToFileURL(join(root, 'dist', 'sandbox.js')).href);
  const sandbox = await startSandbox({ rateLimit: 1_000_000, quiet: true });
  const rows = [];
  try {
    const withAll = buildInto(join(work, 'all'), []);
    for (const node of nodes().filter((candidate) => majors.includes(candidate.major))) {
      const base = {
        KAGENT_CONFIG_DIR: join(home, 'config'),
        NO_COLOR: '',
        FORCE_COLOR: '1',
        KAGENT_BASE_URL: sandbox.baseUrl,
        KAGENT_API_KEY: sandbox.apiKey,
        KAGENT_PAGER: 'cat',
      };
      // A cache dir per run (the shared rate window never paces), holding one compile cache per build and Node.
      let n = 0;
      const envFor = (label) => () => {
        const cache = join(home, `run-${++n}`);
        mkdirSync(cache, { recursive: true });
        return { ...base, KAGENT_CACHE_DIR: cache, NODE_COMPILE_CACHE: join(home, `compile-${node.major}-${label}`) };
      };
      const { stdout } = await runOnce(
        [
          node.path,
          withAll,
          'doc',
          'create',
          '--title',
          'Bench',
          '--body',
          '# Title\n\nSome *text* and `code`.\n\n- a\n- b\n',
          '--json',
        ],
        envFor('setup'),
      );
      const docId = JSON.parse(stdout).id;
      const argvOf = (bin, command) =>
        command === 'me'
          ? [node.path, bin, 'me', '--json']
          : command === 'version' || command === 'help'
            ? [node.path, bin, `--${command}`]
            : ['script', '-qec', `${node.path} ${bin} doc show ${docId}`, '/dev/null'];
      for (const trick of tricks) {
        const withoutBin = buildInto(join(work, trick), [trick]);
        for (const command of TRICKS[trick]) {
          const differences = [];
          const times = { with: [], without: [] };
          for (let round = 0; round < runs + 2; round++) {
            // Alternate which goes first, so neither always runs on a warmer machine.
            const order = round % 2 === 0 ? ['with', 'without'] : ['without', 'with'];
            const got = {};
            for (const side of order) {
              const result = await runOnce(
                argvOf(side === 'with' ? withAll : withoutBin, command),
                envFor(`${trick}-${side}`),
              );
              if (result.code !== 0)
                throw new Error(
                  `${trick} ${side} ${command} on Node ${node.version}: exit ${result.code}: ${result.stderr.slice(0, 300)}`,
                );
              got[side] = result.ms;
            }
            if (round < 2) continue; // warm-up (and the compile caches filled)
            times.with.push(got.with);
            times.without.push(got.without);
            differences.push(got.without - got.with);
          }
          rows.push({
            node: node.version,
            trick,
            command,
            with: median(times.with),
            without: median(times.without),
            gain: median(differences),
          });
        }
      }
    }
  } finally {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
  const table = [['node', 'trick', 'command', 'with ms', 'without ms', 'gain ms (paired median)']];
  for (const row of rows)
    table.push([row.node, row.trick, row.command, row.with.toFixed(1), row.without.toFixed(1), row.gain.toFixed(1)]);
  const widths = table[0].map((_, column) => Math.max(...table.map((line) => line[column].length)));
  console.log(`\nStart-up tricks, ${runs} paired runs each (${new Date().toISOString().slice(0, 10)})`);
  for (const line of table)
    console.log(
      line
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
