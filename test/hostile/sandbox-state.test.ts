// A `--state` file is input like any other: edited by hand, planted, or a link
// to some other file. A stored path that leads out of the state's blob folder
// (`../secret.txt`, `/etc/…`) would be served by `lib text` and removed by
// `lib delete`: such a state is refused at start (exit 2), as other corruption
// is, and left as it is. A state file that is a link to another file is not
// quoted in the error (JSON.parse's message shows the file's first bytes).
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, testNode } from '../helpers/binary.js';
import { startTestSandbox } from '../helpers/sandbox.js';

let home: string;
beforeAll(() => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), 'kagent-sandbox-state-'));
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** `kagent sandbox --state FILE --json`: how it ended (killed after 10 s if it started instead). */
function startBinary(stateFile: string): Promise<{ status: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      testNode,
      [bin, 'sandbox', '--port', '0', '--json', '--quiet', '--no-save-profile', '--state', stateFile],
      { env: { PATH: process.env.PATH, HOME: home, KAGENT_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** A state holding one uploaded file (its bytes and text in the blob folder); its snapshot, parsed. */
async function stateWithUpload(name: string): Promise<{ stateFile: string; itemId: string; snapshot: any }> {
  const dir = join(home, name);
  mkdirSync(dir);
  const stateFile = join(dir, 'state.json');
  const t = await startTestSandbox({ stateFile });
  const upload = await t.call('POST', '/library/files', {
    raw: 'the text of an uploaded file',
    headers: { 'x-file-name': 'notes.txt' },
  });
  expect(upload.status).toBe(201);
  await t.close();
  return { stateFile, itemId: upload.body.item.id, snapshot: JSON.parse(readFileSync(stateFile, 'utf8')) };
}

function itemOf(snapshot: any, id: string): any {
  for (const account of Object.values<any>(snapshot.accounts))
    for (const item of account.library) if (item.id === id) return item;
  throw new Error(`no item ${id}`);
}

describe('a stored path that leads out of the blob folder', () => {
  const cases: [string, string, (dir: string) => string][] = [
    ['text', '_textFile', () => '../secret.txt'],
    ['blob', '_blob', () => 'files/../../victim.txt'],
    ['text', '_textFile', (dir) => join(dir, 'secret.txt')],
  ];
  it.each(cases)(
    'the %s path %s = … is refused at start (exit 2), nothing read or removed',
    async (_, field, path) => {
      const { stateFile, itemId, snapshot } = await stateWithUpload(
        `stray-${field}-${Math.random().toString(36).slice(2)}`,
      );
      const dir = join(stateFile, '..');
      writeFileSync(join(dir, 'secret.txt'), 'SECRET-CONTENT');
      writeFileSync(join(dir, 'victim.txt'), 'VICTIM-CONTENT');
      const stray = path(dir);
      itemOf(snapshot, itemId)[field] = stray;
      const text = JSON.stringify(snapshot);
      writeFileSync(stateFile, text);

      const r = await startBinary(stateFile);
      expect(r.status).toBe(2);
      const error = JSON.parse(r.stderr).error;
      expect(error.code).toBe('STATE_UNREADABLE');
      expect(error.message).toContain(`item ${itemId} names the file ${JSON.stringify(stray)}`);
      expect(error.message).toContain('outside the blob folder');
      expect(r.stdout).toBe('');
      // Left as it is, and so are the files it named.
      expect(readFileSync(stateFile, 'utf8')).toBe(text);
      expect(readFileSync(join(dir, 'secret.txt'), 'utf8')).toBe('SECRET-CONTENT');
      expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('VICTIM-CONTENT');
    },
    30_000,
  );

  it('a stray path that comes from the journal is refused the same way', async () => {
    const { stateFile, itemId, snapshot } = await stateWithUpload('stray-journal');
    const dir = join(stateFile, '..');
    writeFileSync(join(dir, 'secret.txt'), 'SECRET-CONTENT');
    const accountId = Object.keys(snapshot.accounts).find((id) =>
      snapshot.accounts[id].library.some((item: any) => item.id === itemId),
    )!;
    const journal = readFileSync(`${stateFile}.journal`, 'utf8');
    const item = { ...itemOf(snapshot, itemId), _textFile: '../secret.txt' };
    writeFileSync(
      `${stateFile}.journal`,
      `${journal}${JSON.stringify([['u', ['accounts', accountId, 'library'], item]])}\n`,
    );
    const r = await startBinary(stateFile);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'STATE_UNREADABLE' });
    expect(JSON.parse(r.stderr).error.message).toContain('"../secret.txt"');
  }, 30_000);

  it('a state with its paths inside the folder starts and serves the text (the check refuses only strays)', async () => {
    const { stateFile, itemId } = await stateWithUpload('inside');
    const t = await startTestSandbox({ stateFile });
    try {
      expect((await t.call('GET', `/library/${itemId}/text`)).body.text).toBe('the text of an uploaded file');
    } finally {
      await t.close();
    }
  });
});

describe('a --state that is not a sandbox state', () => {
  it('a link to another file: refused (exit 2) without quoting a byte of it', async () => {
    const dir = join(home, 'linked');
    mkdirSync(dir);
    writeFileSync(join(dir, 'private.conf'), 'root:TOPSECRET-1234:0:0\nmore lines\n');
    symlinkSync(join(dir, 'private.conf'), join(dir, 'state.json'));
    const r = await startBinary(join(dir, 'state.json'));
    expect(r.status).toBe(2);
    const error = JSON.parse(r.stderr).error;
    expect(error).toMatchObject({
      code: 'STATE_UNREADABLE',
      message: `cannot read sandbox state ${join(dir, 'state.json')}: it is not valid JSON (not a sandbox state)`,
    });
    expect(r.stderr).not.toMatch(/root|TOPSECRET/);
    expect(readFileSync(join(dir, 'private.conf'), 'utf8')).toBe('root:TOPSECRET-1234:0:0\nmore lines\n');
  }, 30_000);

  it.each(['fifo', 'zero'])(
    'a %s: refused at once (exit 2), not waited on or read',
    async (kind) => {
      const dir = join(home, `special-${kind}`);
      mkdirSync(dir);
      const stateFile = join(dir, 'state.json');
      if (kind === 'fifo') execFileSync('mkfifo', [stateFile]);
      else symlinkSync('/dev/zero', stateFile);
      const started = Date.now();
      const r = await startBinary(stateFile);
      expect(r.status).toBe(2);
      expect(JSON.parse(r.stderr).error).toEqual({
        code: 'STATE_UNREADABLE',
        message: `cannot read sandbox state ${stateFile}: it is not a plain file (a pipe, a device or a directory)`,
        hint: 'fix or remove the --state file',
      });
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(existsSync(stateFile)).toBe(true);
    },
    30_000,
  );
});
