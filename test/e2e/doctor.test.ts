// `kagent doctor` and tolerant reading through the built binary: the bundle
// loads the transport for the OpenAPI document and the shapes for the checks.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt } from '../helpers/binary.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'kagent-doctor-e2e-'));
let t: TestSandbox;

beforeAll(async () => {
  ensureBuilt();
  t = await startTestSandbox();
});
afterAll(() => t.close());

function kagent(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      KAGENT_CONFIG_DIR: join(dir, 'config'),
      KAGENT_CACHE_DIR: join(dir, 'cache'),
      KAGENT_BASE_URL: t.baseUrl,
      KAGENT_API_KEY: t.apiKey,
      NODE_OPTIONS: '',
    };
    execFile(process.execPath, [bin, ...args], { env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the built binary', () => {
  it('kagent doctor --json: all well against the sandbox, its OpenAPI document found and matching', async () => {
    const r = await kagent(['doctor', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.checks.map((c: any) => `${c.name} ${c.status}`)).toEqual([
      'config ok',
      'dns ok',
      'proxy ok',
      'reachable ok',
      'key ok',
      'clock ok',
      'rate-limit ok',
      'openapi ok',
    ]);
    expect(report.checks.at(-1).data.url).toBe(`${t.baseUrl}/openapi.json`);
  });

  it('an answer of another shape: the note, and no crash', async () => {
    await t.inject({ kind: 'shape', count: 1, path: '/api/v1/agent' });
    const r = await kagent(['agent', 'show']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^note: the service's Agent differs from what kagent knows \(.+\): shown as it came\n$/);
  });
});
