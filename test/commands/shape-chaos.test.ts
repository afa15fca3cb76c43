// Shape chaos: every command of every group, taken from the command tree
// (src/cli/manifest.ts + loadGroup), run in-process in the three output modes
// against a sandbox whose answers come back with changed shapes (fields
// removed, renamed, retyped, nested, flattened, added; seeded). Zero crashes
// (no UNEXPECTED, nothing thrown out of the program), and --json output always
// parses. Clean errors with their own code (NOT_FOUND after a renamed id, a
// list that is not a list, ...) are allowed: they are not crashes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups } from '../../src/cli/manifest.js';
import { argvFor, everyCommand, makeFixtures, type Ids, type Leaf } from '../helpers/every-command.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import type { RunCliResult } from '../helpers/run.js';
import { sandboxClock } from '../helpers/sandbox-clock.js';
import { scaled } from '../helpers/scale.js';

/** Seeds tried; each seed is a fresh sandbox whose chaos stream differs. All 16 in `npm test`, 2 in `test:fast`. */
const SEEDS = [11, 23, 37, 41, 59, 67, 73, 89, 97, 101, 103, 107, 109, 113, 127, 131].slice(0, scaled(16, 2));
/** Commands that do not read the service's answers and never return by themselves. */
const NOT_RUN = new Set(['sandbox']);

function crashed(r: RunCliResult): string | undefined {
  // The code of a failure kagent did not foresee (a bug), as text or JSON; UNEXPECTED_ANSWER is a refusal it did.
  if (/\(UNEXPECTED\)|"code":"UNEXPECTED"/.test(r.stderr)) return `UNEXPECTED: ${r.stderr.slice(0, 400)}`;
  return undefined;
}

/** Prints a shell script whatever the flags: it reads no answer of the service. */
const NOT_JSON = new Set(['completion']);

function unparsableJson(r: RunCliResult): string | undefined {
  if (r.stdout.trim() === '') return r.code === 0 ? 'exit 0 with nothing on stdout' : undefined;
  try {
    JSON.parse(r.stdout);
    return undefined;
  } catch {
    // Some commands print one JSON document per line (one per file uploaded...).
    for (const line of r.stdout.split('\n').filter(Boolean)) {
      try {
        JSON.parse(line);
      } catch {
        return `stdout is not JSON: ${r.stdout.slice(0, 300)}`;
      }
    }
    return undefined;
  }
}

let tree: Leaf[] = [];

beforeAll(async () => {
  // Commands that change the login itself (config unset, auth logout) go last, so the others still reach the sandbox.
  const last = (leaf: Leaf) => (leaf.path[1] === 'config' ? 1 : leaf.path[1] === 'auth' ? 2 : 0);
  tree = (await everyCommand())
    .filter((leaf) => !NOT_RUN.has(leaf.path[1] as string))
    .sort((a, b) => last(a) - last(b));
});

describe('shape chaos', () => {
  it('covers every command of every group in the command tree', () => {
    const groupsCovered = new Set(tree.map((leaf) => leaf.path[1]));
    for (const g of groups) if (!NOT_RUN.has(g.name)) expect(groupsCovered.has(g.name)).toBe(true);
    expect(tree.length).toBeGreaterThan(60);
  });

  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      let s: LoggedIn;
      let ids: Ids;

      beforeAll(async () => {
        s = await loggedInSandbox({ seed });
        ids = await makeFixtures(s.t, `chaos ${seed}`);
        // From here on every answer comes back with a changed shape.
        await s.t.inject({ kind: 'shape', count: 10_000 }); // the sandbox's most: more than the run sends
      });
      afterAll(() => s.close());

      it('no command crashes on a changed answer, in any mode; --json always parses', async () => {
        const clock = sandboxClock(s.t);
        const failures: string[] = [];
        let runs = 0;
        for (const leaf of tree) {
          const argv = [...argvFor(leaf, ids), '--yes', '--no-input', '--timeout', '30'];
          for (const mode of ['tty', 'piped', 'json'] as const) {
            const r = await s.kagent(mode === 'json' ? [...argv, '--json'] : argv, { tty: mode === 'tty', clock });
            runs++;
            const problem =
              crashed(r) ?? (mode === 'json' && !NOT_JSON.has(leaf.path[1] as string) ? unparsableJson(r) : undefined);
            if (process.env.CHAOS_LOG)
              console.log(
                mode,
                argv.slice(0, 3).join(' '),
                r.code,
                (r.stderr.match(/\(([A-Z_]+)\)|"code":"([A-Z_]+)"/) ?? [])[0] ?? '',
                r.stdout.length,
              );
            if (problem) failures.push(`${mode} kagent ${argv.join(' ')} → exit ${r.code}: ${problem}`);
          }
        }
        expect(failures).toEqual([]);
        expect(runs).toBe(tree.length * 3);
      });
    });
  }
});
