// An id that is "." or ".." (typed, or read from the service's list) names no
// document: in a URL it is resolved away (/docs/.. is /), so a request with it
// would reach another route. It is refused before anything is sent.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDocServer, type DocServer } from '../helpers/doc-server.js';
import { runCli } from '../helpers/run.js';

let server: DocServer | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const kagent = (argv: string[]) =>
  runCli(argv, { env: { KAGENT_BASE_URL: server?.baseUrl, KAGENT_API_KEY: 'k_test', NO_COLOR: '1' } });

describe('an id of "." or ".."', () => {
  it('typed: exit 2, and no request reaches the service', async () => {
    server = await startDocServer({ docs: [] });
    for (const id of ['..', '.']) {
      const r = await kagent(['doc', 'show', id]);
      expect(r.stderr).toBe(
        `error: "${id}" cannot be used as the id in a URL: it would name another path; nothing was sent (USAGE)\n`,
      );
      expect(r.code).toBe(2);
    }
    expect(server.requests).toEqual([]);
  });

  it('from the service, in doc pull --all: that one fails, the others are pulled, nothing else is asked', async () => {
    server = await startDocServer({
      docs: [
        { id: '..', title: 'Dots', body: 'dots\n' },
        { id: 'dc_2', title: 'Fine', body: 'fine\n' },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'kagent-hostile-'));
    dirs.push(dir);
    const r = await kagent(['doc', 'pull', '--all', '-o', dir]);
    expect(r.stderr).toBe(
      'warning: ".." cannot be used as the id in a URL: it would name another path; nothing was sent\nerror: 1 of 2 files could not be written (WRITE_FAILED)\n' +
        'hint: the reasons are above; the other documents were pulled — run the same command again once those are mended\n',
    );
    expect(r.code).toBe(1);
    expect(readFileSync(join(dir, 'fine.md'), 'utf8')).toBe('fine\n');
    expect(readdirSync(dir).sort()).toEqual(['.kagent', 'fine.md']);
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /docs', 'GET /docs/dc_2']);
  });
});
