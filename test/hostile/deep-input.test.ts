// A request body nested 100,000 levels (`kagent api POST /docs --input deep.json`)
// ended in "Maximum call stack size exceeded (UNEXPECTED)" when written out
// again, and so did `doc edit --ops` with an edit carrying a field nested that deep:
// each is a usage error (exit 2) that sends nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

let server: TinyServer;
beforeAll(async () => {
  server = await tinyServer(() => ({ status: 201, body: { id: 'dc_1' } }));
});
afterAll(() => server.close());

it('api --input with a body nested 100,000 levels: exit 2, nothing sent', async () => {
  const file = join(tempDir('kagent-input-'), 'deep.json');
  writeFileSync(file, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
  const r = await runCli(['api', 'POST', '/docs', '--input', file], {
    env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_input0123456789ab' },
  });
  expect(r.stderr).not.toContain('UNEXPECTED');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`error: --input ${file} is nested deeper than 128 levels (USAGE)`);
  expect(server.requests).toHaveLength(0);
});

it('doc edit --ops with an edit carrying a field nested 100,000 levels: exit 2, nothing sent', async () => {
  const file = join(tempDir('kagent-input-'), 'ops.json');
  writeFileSync(file, `{"edits":[{"op":"append","content":"x","extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`);
  const before = server.requests.length;
  const r = await runCli(['doc', 'edit', 'dc_1', '--ops', file], {
    env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_input0123456789ab' },
  });
  expect(r.stderr).not.toContain('UNEXPECTED');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`error: --ops ${file} is nested deeper than 128 levels (USAGE)`);
  expect(server.requests).toHaveLength(before);
});
