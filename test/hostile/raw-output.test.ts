// Output meant for a file is the document, not a picture of it. `doc show ID
// --raw > f.md` (and `lib text`) write the body as the service holds it: bidi
// and invisible format characters, a BOM, CRLF; under GitHub Actions the
// `::stop-commands::` framing goes only where the runner reads (a pipe), never
// into a regular file. Where the runner does read, a `##[command]` anywhere in a
// line is framed as a `::` line is.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardWorkflowCommands } from '../../src/io/workflow-commands.js';
import { commandsRun, withoutFrames } from '../helpers/actions-runner.js';
import { bin, testNode } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';
import { tempDir } from '../helpers/run.js';

const BODY =
  '# Notes\r\n\r\nright\u200fto\u200bleft \ufeffmark\r\n' +
  '::add-mask::hunter2\n' +
  '  ::set-output name=x::y\r\n' +
  '##[add-mask]secret\n' +
  'a line with ##[error]inside\n' +
  'done';

let s: BinarySandbox;
let docId: string;
beforeAll(async () => {
  s = await binaryAgainstSandbox('kagent-raw-');
  const created = await s.t.call('POST', '/docs', { body: { title: '##[error]title', markdown: BODY } });
  expect(created.status).toBe(201);
  docId = created.body.id;
  const held = await s.t.call('GET', `/docs/${docId}`);
  expect(held.body.body).toBe(BODY);
}, 60_000);
afterAll(() => s.close());

/** Runs the built binary with stdout going to `stdout` (a file descriptor, or a pipe). */
function kagent(
  args: string[],
  env: Record<string, string>,
  stdout: number | 'pipe',
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(testNode, [bin, ...args], { env: { ...s.env, ...env }, stdio: ['ignore', stdout, 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

async function showInto(env: Record<string, string>): Promise<Buffer> {
  const file = join(tempDir('kagent-raw-out-'), 'f.md');
  const fd = openSync(file, 'w');
  try {
    const r = await kagent(['doc', 'show', docId, '--raw'], env, fd);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  } finally {
    closeSync(fd);
  }
  return readFileSync(file);
}

describe('doc show --raw into a regular file', () => {
  it('is byte-identical to the body the service holds (U+200F, U+200B, U+FEFF, CRLF, :: and ##[ lines)', async () => {
    expect((await showInto({})).equals(Buffer.from(BODY, 'utf8'))).toBe(true);
  });

  it('with GITHUB_ACTIONS=true too: no framing line goes into the file', async () => {
    expect((await showInto({ GITHUB_ACTIONS: 'true' })).equals(Buffer.from(BODY, 'utf8'))).toBe(true);
  });
});

describe('where the GitHub runner reads (a pipe)', () => {
  it('doc show frames every :: and ##[ line; without the frames the body is whole', async () => {
    const r = await kagent(['doc', 'show', docId], { GITHUB_ACTIONS: 'true' }, 'pipe');
    expect(r.code).toBe(0);
    expect(commandsRun(r.out)).toEqual([]);
    expect(withoutFrames(r.out)).toBe(BODY);
  });

  it('doc list: a title holding ##[error] is framed', async () => {
    const r = await kagent(['doc', 'list'], { GITHUB_ACTIONS: 'true' }, 'pipe');
    expect(r.code).toBe(0);
    expect(r.out).toContain('##[error]title');
    expect(commandsRun(r.out)).toEqual([]);
  });

  it('a ##[ cut across writes, or begun after text already written, is framed', () => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString('latin1');
        callback();
      },
    });
    guardWorkflowCommands(out, { GITHUB_ACTIONS: 'true' });
    for (const piece of ['intro ', '#', '#', '[add-mask]x\n', 'y ##', '[error]z', ' more\n', '##[warning]w'])
      out.write(piece);
    out.write('\n');
    expect(commandsRun(text)).toEqual([]);
    expect(text).toContain('[add-mask]x');
    expect(text).toContain('[error]z');
    expect(text).toContain('##[warning]w');
  });
});
