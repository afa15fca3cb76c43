// The output layer's part of tolerant reading: printItem with an answer marked
// as not fitting (view kept, unknown fields after it; a view that throws gives
// way to the generic rendering), list columns that trip on an item, and the
// fallback for a command that fails after the service answered.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { verdictFor } from '../../src/api/fit.js';
import { markMisfit } from '../../src/api/misfit.js';
import type { Context, GlobalFlags } from '../../src/context.js';
import { CliError } from '../../src/errors.js';
import { printItem, printList, recoverFromMisfit, renderGeneric } from '../../src/io/output.js';
import { createIO } from '../../src/io/terminal.js';

class Capture extends Writable {
  text = '';
  constructor(public isTTY: boolean) {
    super();
  }
  columns = 100;
  override _write(chunk: Buffer, _e: BufferEncoding, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

function fakeContext(options: { tty: boolean; json?: boolean; debug?: boolean }) {
  const stdout = new Capture(options.tty);
  const stderr = new Capture(options.tty);
  const flags: GlobalFlags = {
    json: options.json ?? false,
    color: false,
    input: true,
    yes: false,
    quiet: false,
    debug: options.debug ?? false,
    insecure: false,
  };
  const io = createIO(
    { stdin: Object.assign(new Capture(options.tty), { read() {} }) as never, stdout, stderr },
    { NO_COLOR: '1' },
    flags,
  );
  const ctx = { io, flags, clock: { now: () => 0, sleep: async () => {} }, misfits: [] } as unknown as Context;
  return { ctx, stdout, stderr };
}

const agentAnswer = () => ({
  name: 'Ada',
  memory: 'tea',
  memoryMax: 20000,
  address: 'ada@x',
  slug: 'ada',
  extra: { a: [1, 2] },
});

function marked(op: 'getAgent', body: Record<string, unknown>) {
  const verdict = verdictFor(op, body)!;
  markMisfit({ ...verdict, body });
  return body;
}

describe('printItem with an answer that did not fit', () => {
  it('the view renders, then the fields it does not know, generically', async () => {
    const { ctx, stdout } = fakeContext({ tty: true });
    const body = marked('getAgent', agentAnswer());
    await printItem(ctx, body, (a: any) => `Agent ${a.name}`);
    expect(stdout.text).toBe('Agent Ada\n\nAlso in the answer:\nslug: ada\nextra:\n  a:\n    - 1\n    - 2\n');
  });

  it('a view that throws gives way to the generic rendering (a CliError still goes through)', async () => {
    const { ctx, stdout } = fakeContext({ tty: false });
    const body = marked('getAgent', { ...agentAnswer(), name: { first: 'Ada' } });
    await printItem(ctx, body, (a: any) => a.name.toUpperCase());
    expect(stdout.text).toBe(
      'name.first\tAda\nmemory\ttea\nmemoryMax\t20000\naddress\tada@x\nslug\tada\nextra.a.0\t1\nextra.a.1\t2\n',
    );
    await expect(
      printItem(ctx, body, () => {
        throw new CliError('refused', { code: 'X' });
      }),
    ).rejects.toThrow('refused');
  });

  it('an answer that fits is the view alone; a view that throws on it is not hidden', async () => {
    const { ctx, stdout } = fakeContext({ tty: true });
    await printItem(ctx, { name: 'Ada' }, (a) => `Agent ${a.name}`);
    expect(stdout.text).toBe('Agent Ada\n');
    await expect(
      printItem(ctx, { name: 'Ada' }, () => {
        throw new TypeError('bug');
      }),
    ).rejects.toThrow('bug');
  });
});

describe('printList', () => {
  it('a column that trips over an item shows the cell empty', async () => {
    const { ctx, stdout } = fakeContext({ tty: false });
    const items = [{ id: 'a', owner: { name: 'Ada' } }, { id: 'b', owner: null }, null];
    const count = await printList(ctx, items as any[], {
      columns: [
        { header: 'ID', value: (r: any) => r.id },
        { header: 'Owner', value: (r: any) => r.owner.name, display: (r: any) => r.owner.name.toUpperCase() },
      ],
    });
    expect(count).toBe(3);
    expect(stdout.text).toBe('a\tAda\nb\t\n\t\n');
  });
});

describe('renderGeneric', () => {
  it('scalars, empty objects and lists, nesting', () => {
    const f = { tty: true, dim: (s: string) => s };
    expect(renderGeneric({ a: 1, b: null, c: {}, d: [], e: [{ x: 'y' }, 'z'] }, f)).toBe(
      'a: 1\nb: null\nc: {}\nd: []\ne:\n  -\n    x: y\n  - z',
    );
    expect(renderGeneric('text', f)).toBe('text');
    expect(renderGeneric({ a: { b: 'c' } }, { tty: false, dim: (s: string) => s })).toBe('a.b\tc');
  });
});

describe('recoverFromMisfit: a command failed after the service answered', () => {
  it('--json: the answer as it came, unless something was printed already', async () => {
    const { ctx, stdout } = fakeContext({ tty: false, json: true });
    (ctx as any).lastAnswer = { op: 'getAgent', body: { name: 7 } };
    expect(await recoverFromMisfit(ctx as any, new TypeError('x'))).toBe(true);
    expect(stdout.text).toBe('{"name":7}\n');
    expect(await recoverFromMisfit(ctx as any, new TypeError('x'))).toBe(true);
    expect(stdout.text).toBe('{"name":7}\n');
  });

  it('a terminal: a note and the generic rendering; --debug adds the stack', async () => {
    const { ctx, stdout, stderr } = fakeContext({ tty: true, debug: true });
    // memoryMax came as a string: the answer does not fit the Agent kagent knows.
    (ctx as any).lastAnswer = { op: 'getAgent', body: { name: 'Ada', memory: 'm', memoryMax: '1', address: 'a' } };
    expect(await recoverFromMisfit(ctx as any, new RangeError('Invalid count value: -1'))).toBe(true);
    expect(stderr.text).toContain('debug: RangeError: Invalid count value: -1');
    expect(stderr.text).toContain(
      "note: kagent could not read the service's Agent (getAgent); here it is as it came\n",
    );
    expect(stdout.text).toBe('name: Ada\nmemory: m\nmemoryMax: 1\naddress: a\n');
  });

  it('not for an answer that fit its shape: the failure is reported as it is', async () => {
    const { ctx, stdout, stderr } = fakeContext({ tty: true });
    (ctx as any).lastAnswer = { op: 'getAgent', body: { name: 'Ada', memory: 'm', memoryMax: 1, address: 'a' } };
    expect(await recoverFromMisfit(ctx as any, new RangeError('Invalid count value: -1'))).toBe(false);
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe('');
  });

  it('not for CliErrors, interruptions, or when no answer came', async () => {
    const { ctx } = fakeContext({ tty: true });
    expect(await recoverFromMisfit(ctx as any, new TypeError('x'))).toBe(false);
    (ctx as any).lastAnswer = { op: 'getAgent', body: {} };
    expect(await recoverFromMisfit(ctx as any, new CliError('no'))).toBe(false);
    expect(await recoverFromMisfit(ctx as any, Object.assign(new Error('gone'), { code: 'EPIPE' }))).toBe(false);
    expect(await recoverFromMisfit(ctx as any, 'a string')).toBe(false);
  });

  it('a list that is not a list: NOT_A_LIST on a terminal', async () => {
    const { ctx } = fakeContext({ tty: true });
    (ctx as any).lastAnswer = { op: 'listSpaces', body: { data: [] } };
    await expect(recoverFromMisfit(ctx as any, new TypeError('x'))).rejects.toMatchObject({
      code: 'NOT_A_LIST',
      exitCode: 1,
    });
  });
});
