// PagingStream (src/io/pager.ts) on its own: held output, the pager started
// once output is taller than the screen, settling before a note on stderr,
// a pager quit early, and how a pager command is told apart.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProgram, isNoPager, PagingStream } from '../../src/io/pager.js';
import { emit, PipeClosedError } from '../../src/io/streams.js';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

let dir: string;
let recorder: string;
const log = () => join(dir, 'started');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kagent-pager-unit-'));
  recorder = join(dir, 'recorder.sh');
  writeFileSync(recorder, `#!/bin/sh\necho started >> "${log()}"\nsed 's/^/> /'\n`);
  chmodSync(recorder, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function paging(rows: number, command = recorder) {
  const stdout = new Sink();
  const stderr = new Sink();
  const stream = new PagingStream({ command, env: { PATH: process.env.PATH }, stdout, stderr, rows });
  return { stdout, stderr, stream };
}
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}\n`).join('');

describe('PagingStream', () => {
  it('output shorter than the screen is written as it is when closed, without a pager', async () => {
    rmSync(log(), { force: true });
    const { stdout, stream } = paging(10);
    await emit(stream, lines(3));
    expect(stdout.text).toBe('');
    await stream.close();
    expect(stdout.text).toBe(lines(3));
    expect(stream.paging).toBe(false);
    expect(existsSync(log())).toBe(false);
  });

  it('output taller than the screen starts the pager once; all of it goes through it, in order', async () => {
    rmSync(log(), { force: true });
    const { stdout, stream } = paging(10);
    for (let i = 0; i < 5; i++) await emit(stream, lines(4));
    expect(stream.paging).toBe(true);
    await stream.close();
    expect(readFileSync(log(), 'utf8')).toBe('started\n');
    const expected = Array.from({ length: 5 }, () => lines(4))
      .join('')
      .replace(/^/gm, '> ')
      .replace(/> $/, '');
    expect(stdout.text).toBe(expected);
  });

  it('settle(): what is held goes out before a note, and the rest of the run is not paged', async () => {
    rmSync(log(), { force: true });
    const { stdout, stream } = paging(10);
    await emit(stream, lines(2));
    await stream.settle();
    expect(stdout.text).toBe(lines(2));
    await emit(stream, lines(30));
    await stream.close();
    expect(stdout.text).toBe(lines(2) + lines(30));
    expect(existsSync(log())).toBe(false);
  });

  it('a pager quit early: the next write fails as a closed pipe (exit 0), close() still returns', async () => {
    const { stream } = paging(2, 'head -c 10 >/dev/null');
    let failure: unknown;
    try {
      for (let i = 0; i < 2000; i++) await emit(stream, lines(50));
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(PipeClosedError);
    await stream.close();
  });
});

describe('pager commands', () => {
  it('cat and an empty command are no pager', () => {
    expect(isNoPager('')).toBe(true);
    expect(isNoPager('cat')).toBe(true);
    expect(isNoPager('/bin/cat')).toBe(true);
    expect(isNoPager('less -R')).toBe(false);
    expect(isNoPager('bat --paging=always')).toBe(false);
  });
  it('finds the program on PATH, or as a path', () => {
    expect(findProgram('sh -c x', { PATH: process.env.PATH })).toMatch(/\/sh$/);
    expect(findProgram(`${recorder} --flag`, {})).toBe(recorder);
    expect(findProgram('no-such-pager-here', { PATH: dir })).toBeUndefined();
    expect(findProgram('  ', { PATH: process.env.PATH })).toBeUndefined();
  });
});
