import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Most tests wait on child processes (the built binary, pseudo-terminals, the
// sandbox) rather than on the CPU. Vitest's default, one worker fewer than the
// cores, ran one at a time on a 2-core machine: two took the suite there from
// 522 s to 307 s, and each later Node's run in .ci/run from 165 s to 105 s.
const maxWorkers = Math.max(2, availableParallelism() - 1);

// The inner loop (`npm run test:fast`): unit, contract and architecture tests,
// and the command tests that drive kagent in-process (test/helpers/run.ts). A
// command test that starts the built binary, a shell or a pseudo-terminal is
// slow by nature and stays in "the rest"; which is which is read from the file,
// not kept by hand.
const STARTS_A_PROCESS = /helpers\/(binary|binary-sandbox|tmux)\.js|node-pty|\bspawn\(|execFile/;
const inProcessCommandTests = readdirSync('test/commands')
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/commands/${name}`)
  .filter((file) => !STARTS_A_PROCESS.test(readFileSync(file, 'utf8')));
const fast = [
  'test/unit/**/*.test.ts',
  'test/contract/**/*.test.ts',
  'test/architecture/**/*.test.ts',
  ...inProcessCommandTests,
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers,
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-result.json' },
    projects: [
      // In-process tests share a worker's module cache (isolate: false): each file
      // would otherwise import the whole program anew, about a third of their time.
      { extends: true, test: { name: 'fast', include: fast, isolate: false } },
      { extends: true, test: { name: 'rest', include: ['test/**/*.test.ts'], exclude: fast } },
    ],
  },
});
