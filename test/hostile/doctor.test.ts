// `kagent doctor` against a hostile service description: the work on any
// OpenAPI document is bounded, and Ctrl-C / SIGTERM are heard.
// - 515 bytes: a schema that is `anyOf` eight `$ref`s to itself made the
//   comparison exponential (8^10 steps): a CPU spun for good, deaf to signals;
// - the same through allOf;
// - a version that is not text, nested 100,000 levels (doctor --json printed it);
// - a --spec file too large to read is refused before it is read.
// The binary is spawned (a synchronous spin would freeze an in-process test) and
// killed if it is not done in time.
import { spawn } from 'node:child_process';
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithSpec, MAX_SCHEMA_STEPS, SpecTooComplexError } from '../../src/doctor/openapi.js';
import { MAX_DOCUMENT_BYTES } from '../../src/doctor/run.js';
import { bin, ensureBuilt, root, testNode } from '../helpers/binary.js';
import { tempDir } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
function describing(schemas: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    openapi: '3.1.0',
    info: { title: 'hostile', version: '1' },
    paths: {
      '/me': {
        get: { operationId: 'getMe', responses: { 200: { content: { 'application/json': { schema: ref('X') } } } } },
      },
    },
    components: { schemas },
    ...extra,
  };
}
const SELF_ANYOF = describing({ X: { anyOf: Array.from({ length: 8 }, () => ref('X')) } });
const SELF_ALLOF = describing({ X: { allOf: Array.from({ length: 8 }, () => ref('X')) } });
// As text: JSON.stringify itself cannot write it.
const DEEP_VERSION = JSON.stringify(describing({ X: { type: 'object' } })).replace(
  '"version":"1"',
  `"version":${'['.repeat(100_000)}${']'.repeat(100_000)}`,
);

let server: TinyServer;
let document: unknown = SELF_ANYOF;
beforeAll(async () => {
  ensureBuilt();
  server = await tinyServer((req) => {
    if (req.url?.endsWith('/me'))
      return {
        status: 200,
        body: { id: 'u_1', email: 'ada@example.com' },
        headers: { date: new Date().toUTCString() },
      };
    if (req.url?.endsWith('/openapi.json')) return { status: 200, body: document };
    return { status: 404, body: {} };
  });
});
afterAll(() => server.close());

/** Runs the binary; kills it (SIGKILL) if it has not ended after `limitMs`. */
function doctor(
  args: string[],
  limitMs: number,
  signalAfterMs?: { signal: NodeJS.Signals; ms: number },
): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  const config = tempDir('kagent-config-');
  const child = spawn(testNode, [bin, 'doctor', ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: config,
      KAGENT_CONFIG_DIR: config,
      KAGENT_CACHE_DIR: join(config, 'cache'),
      KAGENT_BASE_URL: server.baseUrl,
      KAGENT_API_KEY: 'kak_doctor0123456789abcd',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, limitMs);
  if (signalAfterMs) setTimeout(() => child.kill(signalAfterMs.signal), signalAfterMs.ms);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

describe('doctor on a hostile OpenAPI document', () => {
  it.each([
    ['anyOf of eight $refs to itself', SELF_ANYOF],
    ['allOf of eight $refs to itself', SELF_ALLOF],
  ])(
    '%s: compared in bounded time, exit by the checks',
    async (_name, hostile) => {
      document = hostile;
      expect(JSON.stringify(hostile).length).toBeLessThan(600);
      const r = await doctor([], 20_000);
      expect(r.killed, 'doctor was still running after 20 s').toBe(false);
      expect(r.stdout).toMatch(/^(ok|warn|fail)\topenapi\t/m);
      expect(`${r.stdout}${r.stderr}`).not.toContain('UNEXPECTED');
    },
    30_000,
  );

  it('a version nested 100,000 levels: --json prints the report (the version left out), no stack overflow', async () => {
    document = DEEP_VERSION;
    const r = await doctor(['--json'], 20_000);
    expect(r.killed).toBe(false);
    expect(r.stderr).not.toContain('UNEXPECTED');
    const report = JSON.parse(r.stdout);
    const openapi = report.checks.find((c: { name: string }) => c.name === 'openapi');
    expect(openapi.data.version).toBeNull();
  }, 30_000);

  it('SIGTERM ends it: it no longer spins deaf to signals', async () => {
    document = SELF_ANYOF;
    const r = await doctor([], 20_000, { signal: 'SIGTERM', ms: 3000 });
    expect(r.killed, 'doctor was still running 17 s after SIGTERM').toBe(false);
  }, 30_000);

  it('a --spec file larger than the bound is not read', async () => {
    const file = join(tempDir('kagent-spec-'), 'huge.json');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, MAX_DOCUMENT_BYTES + 1); // sparse: no disk, no time
    closeSync(fd);
    const r = await doctor(['--spec', file], 20_000);
    expect(r.stdout).toMatch(new RegExp(`fail\\topenapi\\tno OpenAPI document at .*huge\\.json`));
    expect(r.stdout).toContain(`larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB: not read`);
  }, 30_000);
});

describe('compareWithSpec', () => {
  it('stops an aborted comparison (Ctrl-C) with an interruption', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(compareWithSpec(describing({ X: { type: 'object' } }), controller.signal)).rejects.toMatchObject({
      code: 'INTERRUPTED',
    });
  });

  it(`gives up past ${MAX_SCHEMA_STEPS} schema steps with SpecTooComplexError`, async () => {
    // Distinct schemas (no memo helps): a union of 300,000 branches.
    const branches = Array.from({ length: MAX_SCHEMA_STEPS + 10 }, (_, i) => ({ type: 'object', title: String(i) }));
    await expect(compareWithSpec(describing({ X: { anyOf: branches } }))).rejects.toBeInstanceOf(SpecTooComplexError);
  });
});
