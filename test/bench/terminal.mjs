#!/usr/bin/env node
// Interactive paths on a terminal, each against `node -e 0` started the same way
// (in a pseudo-terminal made by `script`, so both pay script's own start-up):
//   - `kagent doc show ID` of a 50 KB Markdown document, rendered (to the end of the output);
//   - `kagent space delete NAME`: until its confirmation prompt is on the screen.
// Run alone with `node test/bench/terminal.mjs` (after `npm run build`); `npm run bench`
// runs it too. KAGENT_BENCH_BIN points it at another build; KAGENT_BENCH_COMPARE adds the
// rows of a second build to the same rotation (before/after on an equally busy machine).
// BENCH_TERMINAL_RUNS sets the rounds (default 15).
/* global fetch */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './timing.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = process.env.KAGENT_BENCH_BIN ?? join(root, 'bin', 'kagent.js');
const node = process.execPath;
const RUNS = Number(process.env.BENCH_TERMINAL_RUNS ?? 15);
const WARMUP = 2;

const quote = (word) => `'${String(word).replace(/'/g, `'\\''`)}'`;

/** Runs a command line in a 100 × 40 pseudo-terminal; resolves with the ms until `until` shows (then the run is ended) or until it exits. */
function timeInPty(words, env, until) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn('script', ['-qefc', `stty cols 100 rows 40; exec ${words.map(quote).join(' ')}`, '/dev/null'], {
      env: { PATH: process.env.PATH, TERM: 'xterm-256color', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let seen;
    const onData = (chunk) => {
      output += chunk;
      if (until && seen === undefined && until.test(output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''))) {
        seen = Number(process.hrtime.bigint() - started) / 1e6;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) =>
      resolve({ ms: seen ?? Number(process.hrtime.bigint() - started) / 1e6, code, seen: seen !== undefined, output }),
    );
  });
}

/** A 50 KB document: headings, paragraphs, lists, quotes, links, CJK, a code block. */
export function fiftyKilobytes() {
  const parts = ['# Field notes\n'];
  for (let i = 0; parts.join('\n').length < 50_000; i++) {
    parts.push(
      `## Section ${i}\n`,
      `Paragraph ${i}: the quick brown fox jumps over the lazy dog, **again and again**, past the river and into the hills; see [the map](https://example.com/maps/${i}) and \`notes-${i}.md\`.\n`,
      `- first point of section ${i}, with enough words to wrap at eighty columns and then some more\n- second point\n  - nested point ${i}\n`,
      `> A quoted line from source ${i} that is long enough to wrap on most terminals, as quotes are.\n`,
      '中文段落：这是一个很长的中文段落，用来测试换行是否正确处理宽字符，不会超出终端宽度。\n',
      '```js\nconst answer = 42;\nconsole.log(answer);\n```\n',
    );
  }
  return parts.join('\n');
}

export async function benchTerminal() {
  if (spawnSync('script', ['--version']).status !== 0) throw new Error('`script` (util-linux) is not installed');
  const { startSandbox } = await import('../../dist/sandbox.js');
  const sandbox = await startSandbox({ rateLimit: 1_000_000, quiet: true });
  const home = mkdtempSync(join(tmpdir(), 'kagent-bench-tty-'));
  let run = 0;
  try {
    const call = async (method, path, body) => {
      const response = await fetch(`${sandbox.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${sandbox.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': `bench-${path}-${Date.now()}`,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const doc = await call('POST', '/docs', { title: 'Field notes', markdown: fiftyKilobytes() });
    await call('POST', '/spaces', { name: 'Bench space' });
    const env = () => ({
      KAGENT_CONFIG_DIR: join(home, 'config'),
      // A cache directory per run: the shared 60/min budget is not what is measured.
      KAGENT_CACHE_DIR: join(home, 'cache', String(++run)),
      KAGENT_BASE_URL: sandbox.baseUrl,
      KAGENT_API_KEY: sandbox.apiKey,
      KAGENT_PAGER: 'cat',
    });
    const builds = [
      ['', bin],
      ...(process.env.KAGENT_BENCH_COMPARE ? [[' [compared]', process.env.KAGENT_BENCH_COMPARE]] : []),
    ];
    const commands = [
      { name: 'node -e 0 (in a pty)', words: [node, '-e', '0'] },
      ...builds.flatMap(([tag, kagent]) => [
        {
          name: `kagent doc show ID (50 KB, rendered)${tag}`,
          words: [node, kagent, 'doc', 'show', doc.id],
          check: (r) => r.code === 0 && /nested point 0/.test(r.output),
        },
        {
          name: `kagent space delete: first prompt shown${tag}`,
          words: [node, kagent, 'space', 'delete', 'Bench space'],
          until: /Delete space/,
          check: (r) => r.seen,
        },
      ]),
    ];
    for (const command of commands) {
      const once = await timeInPty(command.words, env(), command.until);
      if (command.check && !command.check(once))
        throw new Error(`${command.name}: unexpected run (exit ${once.code}): ${once.output.slice(0, 300)}`);
    }
    const times = commands.map(() => []);
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const [i, command] of commands.entries()) {
        const { ms } = await timeInPty(command.words, env(), command.until);
        if (round >= WARMUP) times[i].push(ms);
      }
    }
    const baseline = median(times[0]);
    console.log(`\nTerminal (${bin === join(root, 'bin', 'kagent.js') ? 'this build' : bin})`);
    for (const [i, command] of commands.entries()) {
      console.log(
        `  ${command.name.padEnd(56)} ${median(times[i]).toFixed(1).padStart(7)} ms  ${(median(times[i]) / baseline).toFixed(3)}×`,
      );
    }
    console.log(`  ${RUNS} timed runs each in rotation (after ${WARMUP} warm-up rounds); node ${process.version}.`);
  } finally {
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await benchTerminal();
