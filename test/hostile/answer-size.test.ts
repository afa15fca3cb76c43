// What kagent reads of one answer is capped (64 MiB, MAX_ANSWER_BYTES, and 8
// million values, MAX_ANSWER_VALUES, counted before parsing), and an answer under
// the caps but bloated with fields kagent does not know stays within a small
// multiple of its size in memory. Peak RSS is the built binary's own,
// reported by a preload from process.resourceUsage() as the process exits.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/http/core.js';
import { bin, ensureBuilt, root, testNode } from '../helpers/binary.js';
import { bigMe, hostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { tempDir } from '../helpers/run.js';

beforeAll(() => ensureBuilt());

const MB = 1024 * 1024;
let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Ran {
  code: number | null;
  stdoutBytes: number;
  /** The first 100 kB of stdout. */
  stdoutHead: string;
  stderr: string;
  /** Peak resident memory of the kagent process, MB. */
  peakMb: number;
}

/** `kagent ARGS…` (the built binary) with a preload that writes its peak RSS to a file on exit. */
function kagentMeasured(args: string[]): Promise<Ran> {
  const dir = tempDir('kagent-rss-');
  const preload = join(dir, 'rss.cjs');
  const report = join(dir, 'rss.txt');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, String(process.resourceUsage().maxRSS)));\n`,
  );
  const child = spawn(testNode, ['--require', preload, bin, ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      KAGENT_CONFIG_DIR: dir,
      KAGENT_CACHE_DIR: dir,
      KAGENT_API_KEY: 'ka_test_size',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdoutBytes = 0;
  let stdoutHead = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (stdoutHead.length < 100_000) stdoutHead += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdoutBytes, stdoutHead, stderr, peakMb: Number(readFileSync(report, 'utf8')) / 1024 });
    });
  });
}

/** /me with `extra` as a list of `count` small objects: millions of values to parse, check and render. */
function meWithManyItems(bytes: number): Buffer {
  const head = '{"id":"u_1","email":"ada@example.com","name":"Ada","plan":{"id":"pro","name":"Pro"},"extra":[';
  const item = '{"k":"v","n":1},';
  const count = Math.floor((bytes - head.length - 2) / item.length);
  return Buffer.from(`${head}${item.repeat(count).slice(0, -1)}]}`);
}

describe('an answer bloated under the cap', () => {
  it('a 24 MB extra string field: `kagent me` stays under 400 MB and shows the account', async () => {
    server = await hostileServer(() => ({ kind: 'answer', status: 200, bytes: bigMe(24 * MB) }));
    const r = await kagentMeasured(['me', '--base-url', server.baseUrl]);
    expect(r.code).toBe(0);
    expect(r.peakMb).toBeLessThan(400);
  }, 60_000);

  it('24 MB of small items in an extra field: `kagent me` stays under 400 MB, and shows a part of them', async () => {
    server = await hostileServer(() => ({ kind: 'answer', status: 200, bytes: meWithManyItems(24 * MB) }));
    const r = await kagentMeasured(['me', '--base-url', server.baseUrl]);
    expect(r.code).toBe(0);
    expect(r.peakMb).toBeLessThan(400);
    // A thousand lines of them, then a note: not 3 million `extra.N.k` lines.
    expect(r.stdoutBytes).toBeLessThan(100_000);
  }, 60_000);

  it('the same with --json: printed whole, under 400 MB', async () => {
    const body = meWithManyItems(24 * MB);
    server = await hostileServer(() => ({ kind: 'answer', status: 200, bytes: body }));
    const r = await kagentMeasured(['me', '--json', '--base-url', server.baseUrl]);
    expect(r.code).toBe(0);
    expect(r.stdoutBytes).toBeGreaterThanOrEqual(body.length);
    expect(r.peakMb).toBeLessThan(400);
  }, 60_000);
});

/** /me with `extra` as `head` + `count` items from `item(i)` joined by commas + `tail`. */
function meWith(head: string, count: number, item: (i: number) => string, tail: string): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(item(i));
  return Buffer.from(
    `{"id":"u_1","email":"ada@example.com","name":"Ada","plan":{"id":"pro","name":"Pro"},"extra":${head}${parts.join(',')}${tail}}`,
  );
}

describe('an answer under the byte cap holding too many values to parse', () => {
  // JSON.parse of these took 1.0 GB (3M keys, and a minute) and 880 MB (a 60 MB array of numbers).
  it.each([
    ['3 million keys in one object', () => meWith('{', 3_000_000, (i) => `"k${i}":1`, '}')],
    ['a 60 MB array of numbers', () => meWith('[', 30_000_000, () => '1', ']')],
  ])(
    '%s: ANSWER_TOO_LARGE (exit 7) naming the cap, asked once, under 400 MB',
    async (_name, body) => {
      const bytes = body();
      server = await hostileServer(() => ({ kind: 'answer', status: 200, bytes }));
      for (const args of [['me'], ['me', '--json'], ['api', '/me']]) {
        const r = await kagentMeasured([...args, '--base-url', server.baseUrl]);
        expect(r.code).toBe(7);
        expect(r.stdoutBytes).toBe(0);
        expect(r.stderr).toMatch(
          /GET \/api\/v1\/me: the answer holds more than 8,000,000 values \(a key of an object of over 1,000 keys counting as 10\), kagent's cap on one answer; it was not read/,
        );
        expect(r.stderr).toMatch(/ANSWER_TOO_LARGE/);
        expect(r.peakMb).toBeLessThan(400);
      }
      expect(server.requests).toHaveLength(3); // never retried
    },
    120_000,
  );

  it('a 16 MB array of numbers (8 million values, within the cap): shown, under 400 MB', async () => {
    server = await hostileServer(() => ({
      kind: 'answer',
      status: 200,
      bytes: meWith('[', 7_999_000, () => '1', ']'),
    }));
    const r = await kagentMeasured(['me', '--json', '--base-url', server.baseUrl]);
    expect(r.code).toBe(0);
    expect(r.peakMb).toBeLessThan(400);
  }, 60_000);
});

describe('an answer over the cap', () => {
  it('is 64 MiB', () => {
    expect(MAX_ANSWER_BYTES).toBe(64 * MB);
  });

  it('announced (content-length 70 MB): refused before it is read, exit 7, the cap named', async () => {
    server = await hostileServer(() => ({ kind: 'answer', status: 200, bytes: bigMe(70 * MB) }));
    const r = await kagentMeasured(['me', '--base-url', server.baseUrl]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /GET \/api\/v1\/me: the answer is larger than 64 MiB, kagent's cap on one answer; stopped reading it \(ANSWER_TOO_LARGE\)/,
    );
    expect(r.peakMb).toBeLessThan(200);
    expect(server.requests).toHaveLength(1); // never retried
  }, 60_000);

  it('unannounced (a body that never ends): reading stops at the cap, exit 7', async () => {
    server = await hostileServer(() => ({ kind: 'endless' }));
    const r = await kagentMeasured(['me', '--base-url', server.baseUrl]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/larger than 64 MiB.*\(ANSWER_TOO_LARGE\)/);
    expect(r.peakMb).toBeLessThan(400);
    expect(server.requests).toHaveLength(1);
  }, 60_000);

  it('doctor: an endless OpenAPI document is read only up to the cap, and memory stays small', async () => {
    server = await hostileServer((req) =>
      req.url.endsWith('/openapi.json') ? { kind: 'endless' } : { kind: 'answer', status: 200, bytes: bigMe(1024) },
    );
    const r = await kagentMeasured(['doctor', '--base-url', server.baseUrl]);
    expect(r.code).toBe(0);
    expect(r.stdoutHead).toMatch(
      /openapi\t.*openapi\.json: the answer is larger than 64 MiB, kagent's cap on one answer/,
    );
    expect(r.peakMb).toBeLessThan(400);
    expect(server.requests.filter((q) => q.url.endsWith('/openapi.json')).length).toBeGreaterThan(0);
  }, 90_000);
});
