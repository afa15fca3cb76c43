import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most tests wait on child processes (the built binary, pseudo-terminals, the
    // sandbox) rather than on the CPU. Vitest's default, one worker fewer than the
    // cores, ran one at a time on a 2-core machine: two took the suite there from
    // 522 s to 307 s, and each later Node's run in .ci/run from 165 s to 105 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-result.json' },
  },
});
