// `kagent lib sync` as the built binary (bin/kagent.js → dist/), against the sandbox:
// - killed with SIGKILL at random moments of its work (the k-th change the service
//   receives, plus a random few milliseconds; both printed, so a failure can be
//   replayed), again and again, then run to the end: the space ends exactly as
//   the folder is (one item per file, each with the file's SHA-256), no duplicate,
//   nothing lost, the items that did not come from the folder untouched;
// - two runs of the same sync at once: both succeed and leave that same end state.
import { spawn } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pathOfNote } from '../../src/upload/sync-plan.js';
import { bin, testNode } from '../helpers/binary.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { binaryAgainstSandbox, handbookAccount, type BinarySandbox } from '../helpers/binary-sandbox.js';

let sandbox: BinarySandbox;
let home: string;
let t: TestSandbox;
let key: string;
let configDir: string;

beforeAll(async () => {
  sandbox = await binaryAgainstSandbox('kagent-e2e-sync-');
  ({ t, home } = sandbox);
}, 60_000);
afterAll(() => sandbox?.close());
beforeEach(async () => {
  ({ key, configDir } = await handbookAccount(t, home));
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A SIGKILL sent `afterMs` after the service has received the `change`-th upload or deletion of the run. */
interface Kill {
  change: number;
  afterMs: number;
}

/** Starts `kagent lib sync DIR --space Handbook --delete --yes`, killed as `kill` says. */
function syncRun(dir: string, kill?: Kill): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      testNode,
      [bin, 'lib', 'sync', dir, '--space', 'Handbook', '--delete', '--yes', '--concurrency', '3'],
      {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          KAGENT_CONFIG_DIR: configDir,
          KAGENT_CACHE_DIR: join(configDir, 'cache'),
          CI: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // Counted where the service sees them, so that the kill lands in the run's work however fast the machine.
    let changes = 0;
    let timer: NodeJS.Timeout | undefined;
    const onRequest = (request: IncomingMessage) => {
      const change =
        request.method === 'DELETE' || (request.method === 'POST' && /\/library\/files/.test(request.url ?? ''));
      if (kill && change && ++changes === kill.change) timer = setTimeout(() => child.kill('SIGKILL'), kill.afterMs);
    };
    if (kill) t.sandbox.server.on('request', onRequest);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      t.sandbox.server.off('request', onRequest);
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

function files(dir: string, at = dir): string[] {
  return readdirSync(at, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(dir, join(at, entry.name)) : [relative(dir, join(at, entry.name))],
  );
}

/** path under the folder → SHA-256 of every file the folder should have in the space. */
function wanted(dir: string): Map<string, string> {
  return new Map(files(dir).map((rel) => [rel, sha256(readFileSync(join(dir, rel)))]));
}

type Item = { id: string; fileName: string; sha256: string; note?: string | null };

async function items(): Promise<Item[]> {
  return (await t.call('GET', '/library', { key, query: { kind: 'file', limit: 200 } })).body.items;
}

/** The file of the folder synced as `prefix` an item holds (its note says which), or undefined. */
const pathOf = (item: Item, prefix = 'docs') => pathOfNote(prefix, item.note ?? '');

/** The paths whose items are in the space. */
async function paths(prefix = 'docs'): Promise<Set<string>> {
  return new Set((await items()).flatMap((item) => pathOf(item, prefix) ?? []));
}

/** The items sync made: path → SHA-256, failing on a path present twice. */
async function synced(): Promise<Map<string, string>> {
  const mine = (await items()).filter((item) => pathOf(item) !== undefined);
  const names = mine.map((item) => pathOf(item) as string);
  expect(new Set(names).size, `duplicates among ${names.join(', ')}`).toBe(names.length);
  return new Map(mine.map((item) => [pathOf(item) as string, item.sha256]));
}

function makeFolder(count: number): string {
  const dir = join(mkdtempSync(join(home, 'work-')), 'docs');
  for (let i = 0; i < count; i++) {
    const rel = i % 3 === 0 ? `guide/part-${i}.md` : `note-${i}.md`;
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    // A few KiB each, so that uploads take a moment.
    writeFileSync(join(dir, rel), `# ${rel}\n\n${`line ${i} of the first version\n`.repeat(200)}`);
  }
  return dir;
}

/** Changes a third of the files, removes some, adds some. */
function edit(dir: string, round: number): void {
  const all = files(dir).sort();
  all.forEach((rel, i) => {
    if (i % 3 === 0)
      writeFileSync(join(dir, rel), `# ${rel}\n\n${`line ${i}, version ${round}\n`.repeat(150 + round)}`);
    else if (i % 7 === 1) unlinkSync(join(dir, rel));
  });
  for (let i = 0; i < 4; i++)
    writeFileSync(join(dir, `added-${round}-${i}.md`), `# added ${round} ${i}\n${'text\n'.repeat(100)}`);
}

describe('kagent lib sync, killed and run twice at once', () => {
  it('SIGKILL at random moments, then a full run: the space matches the folder, no duplicate, foreign items untouched', async () => {
    const dir = makeFolder(24);
    // An item that did not come from the folder, with the bytes of none of its files.
    const foreign = (
      await t.call('POST', '/library/files', {
        key,
        raw: Buffer.from('# by hand\n'),
        headers: { 'x-file-name': 'notes.md', 'content-type': 'application/octet-stream' },
      })
    ).body.item.id;
    const delays: string[] = [];
    const outcomes: string[] = [];
    for (let round = 1; round <= 3; round++) {
      if (round > 1) edit(dir, round);
      const names = await paths();
      const present = new Set([...wanted(dir).keys()].filter((name) => names.has(name)));
      for (let attempt = 0; attempt < 4; attempt++) {
        // Between the first change and the sixth, then up to 40 ms later: before, during or after a request.
        const kill = { change: 1 + Math.floor(Math.random() * 6), afterMs: Math.floor(Math.random() * 40) };
        const delay = `change ${kill.change} + ${kill.afterMs} ms`;
        delays.push(delay);
        const killed = await syncRun(dir, kill);
        outcomes.push(killed.signal === 'SIGKILL' ? `killed at ${delay}` : `finished before ${delay}`);
        // Either it was killed, or it finished first: both must leave a state the next run can finish from.
        expect(killed.signal === 'SIGKILL' || killed.code === 0, `delays ${delays.join(', ')}: ${killed.stderr}`).toBe(
          true,
        );
        // Nothing lost: a file of the folder that had an item still has one (an earlier version goes only after the new one is in).
        const now = await paths();
        for (const name of present) expect(now.has(name), `${name} lost; delays ${delays.join(', ')}`).toBe(true);
        for (const name of now) if (wanted(dir).has(name)) present.add(name);
      }
      const began = Date.now();
      const done = await syncRun(dir);
      outcomes.push(`a full run took ${Date.now() - began} ms`);
      expect(done.code, `delays ${delays.join(', ')}: ${done.stderr}`).toBe(0);
      expect(await synced(), `delays ${delays.join(', ')}`).toEqual(wanted(dir));
      // One more run finds nothing to do.
      const again = await syncRun(dir);
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(
        new RegExp(`^0 uploaded, 0 replaced, 0 deleted, ${wanted(dir).size} unchanged, 0 failed`, 'm'),
      );
    }
    expect((await items()).some((item) => item.id === foreign)).toBe(true);
    // The kills landed in the middle of runs.
    expect(outcomes.filter((o) => o.startsWith('killed at')).length, outcomes.join('; ')).toBeGreaterThanOrEqual(3);
    console.log(`lib sync runs: ${outcomes.join('; ')}`);
  }, 240_000);

  it('two runs of the same sync at once: both succeed, the end state is the folder, no duplicate', async () => {
    const dir = makeFolder(18);
    expect((await syncRun(dir)).code).toBe(0);
    edit(dir, 2);
    const [a, b] = await Promise.all([syncRun(dir), syncRun(dir)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(await synced()).toEqual(wanted(dir));
    // From scratch too: a new folder name, both runs uploading everything.
    const fresh = join(dir, '..', 'fresh');
    mkdirSync(fresh);
    for (const rel of files(dir)) {
      mkdirSync(join(fresh, rel, '..'), { recursive: true });
      writeFileSync(join(fresh, rel), `${readFileSync(join(dir, rel), 'utf8')}fresh copy\n`);
    }
    const [c, d] = await Promise.all([syncRun(fresh), syncRun(fresh)]);
    expect(c.code, c.stderr).toBe(0);
    expect(d.code, d.stderr).toBe(0);
    const freshItems = (await items()).filter((item) => pathOf(item, 'fresh') !== undefined);
    expect(freshItems).toHaveLength(files(fresh).length);
    expect(new Set(freshItems.map((item) => pathOf(item, 'fresh'))).size).toBe(freshItems.length);
  }, 120_000);
});
