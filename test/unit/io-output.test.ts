// The output contract, through printList / printItem / printJson with fake streams.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context, GlobalFlags } from '../../src/context.js';
import { printItem, printJson, printList, type Column } from '../../src/io/output.js';
import { emit, PipeClosedError } from '../../src/io/streams.js';
import { createIO } from '../../src/io/terminal.js';

class Capture extends Writable {
  text = '';
  constructor(
    public isTTY: boolean,
    public columns = 100,
  ) {
    super();
  }
  override _write(chunk: Buffer, _e: BufferEncoding, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function fakeContext(options: { tty: boolean; json?: boolean; jq?: string; env?: NodeJS.ProcessEnv; color?: boolean }) {
  const stdout = new Capture(options.tty);
  const stderr = new Capture(options.tty);
  const flags: GlobalFlags = {
    json: options.json ?? options.jq !== undefined,
    jq: options.jq,
    color: options.color ?? true,
    input: true,
    yes: false,
    quiet: false,
    debug: false,
    insecure: false,
  };
  const io = createIO(
    { stdin: Object.assign(new Capture(options.tty), { read() {} }) as never, stdout, stderr },
    options.env ?? {},
    flags,
  );
  const ctx = { io, flags, clock: { now: () => NOW, sleep: async () => {} } } as unknown as Context;
  return { ctx, stdout, stderr };
}

interface Row {
  id: string;
  title: string;
  status: string;
  createdAt: string;
  pinned: boolean;
}

const rows: Row[] = [
  {
    id: 'a1',
    title: 'First \x1b[2J\x1b]0;pwned\x07title',
    status: 'in_progress',
    createdAt: '2026-01-15T11:55:00.000Z',
    pinned: true,
  },
  { id: 'b2', title: 'Tab\there\nnewline', status: 'done', createdAt: '2026-01-14T12:00:00.000Z', pinned: false },
];
const columns: Column<Row>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'title', value: (r) => r.title, flex: true },
  { header: 'status', value: (r) => r.status, display: (r, f) => f.yellow(r.status.replace('_', ' ')) },
  { header: 'created', value: (r) => r.createdAt, kind: 'time' },
  { header: 'pinned', value: (r) => r.pinned, kind: 'bool' },
];

async function* slowly<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) {
    await new Promise((resolve) => setImmediate(resolve));
    yield item;
  }
}

describe('lists', () => {
  it('--json prints the objects as an array, compact when piped', async () => {
    const { ctx, stdout } = fakeContext({ tty: false, json: true });
    await printList(ctx, rows, { columns });
    expect(stdout.text).toBe(`${JSON.stringify(rows)}\n`);
  });

  it('--json on a terminal is pretty, streamed item by item, and still one array', async () => {
    const { ctx, stdout } = fakeContext({ tty: true, json: true });
    await printList(ctx, slowly(rows), { columns });
    expect(JSON.parse(stdout.text)).toEqual(rows);
    expect(stdout.text).toContain('\n  {\n    "id": "a1"');
  });

  it('--json streamed: the exact text, on a terminal and piped, closed even when the items stop part-way', async () => {
    const two = [
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
    ];
    const idColumn: Column<{ id: string }>[] = [{ header: 'id', value: (r) => r.id }];
    async function* failing() {
      yield* slowly(two);
      throw new Error('page 2 failed');
    }
    const pretty = '[\n  {\n    "id": "a",\n    "n": 1\n  },\n  {\n    "id": "b",\n    "n": 2\n  }\n]\n';
    const compact = '[{"id":"a","n":1},{"id":"b","n":2}]\n';
    for (const [tty, text] of [
      [true, pretty],
      [false, compact],
    ] as const) {
      const whole = fakeContext({ tty, json: true });
      await printList(whole.ctx, slowly(two), { columns: idColumn });
      expect(whole.stdout.text).toBe(text);
      const stopped = fakeContext({ tty, json: true });
      await expect(printList(stopped.ctx, failing(), { columns: idColumn })).rejects.toThrow('page 2 failed');
      expect(stopped.stdout.text).toBe(text);
    }
  });

  it('a column whose display fails shows its value as plain text instead (JSON for an object)', async () => {
    const { ctx, stdout } = fakeContext({ tty: true });
    const failingDisplay: Column<{ id: string; tags: string[] }>[] = [
      { header: 'id', value: (r) => r.id },
      {
        header: 'tags',
        value: (r) => r.tags,
        display: () => {
          throw new TypeError('not a list of strings');
        },
      },
    ];
    await printList(ctx, [{ id: 'a1', tags: ['x', 'y'] }], { columns: failingDisplay });
    expect(stdout.text).toMatch(/a1 +\["x","y"\]/);
  });

  it('--json prints [] for an empty list', async () => {
    const { ctx, stdout } = fakeContext({ tty: false, json: true });
    await printList(ctx, slowly([]), { columns, empty: 'Nothing.' });
    expect(stdout.text).toBe('[]\n');
  });

  it('piped: tab-separated raw values, no header, ISO times, no colour, no escapes', async () => {
    const { ctx, stdout } = fakeContext({ tty: false });
    await printList(ctx, rows, { columns });
    expect(stdout.text).toBe(
      'a1\tFirst title\tin_progress\t2026-01-15T11:55:00.000Z\ttrue\nb2\tTab here newline\tdone\t2026-01-14T12:00:00.000Z\tfalse\n',
    );
  });

  it('piped stays plain even with colour forced on (FORCE_COLOR)', async () => {
    const { ctx, stdout } = fakeContext({ tty: false, env: { FORCE_COLOR: '1' } });
    await printList(ctx, rows, { columns });
    expect(stdout.text).not.toContain('\x1b');
  });

  it('terminal: a table with header, relative times and colour; server escapes removed', async () => {
    const { ctx, stdout } = fakeContext({ tty: true });
    await printList(ctx, rows, { columns });
    const plain = stdout.text.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain.split('\n')[0]).toMatch(/^ID\s+TITLE\s+STATUS\s+CREATED\s+PINNED$/);
    expect(plain).toContain('5 minutes ago');
    expect(plain).toContain('in progress');
    expect(stdout.text).toContain('\x1b[33m');
    expect(stdout.text.replace(/\x1b\[[0-9;]*m/g, '')).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(stdout.text).not.toContain('pwned');
  });

  it('terminal with NO_COLOR: the same table without colour', async () => {
    const { ctx, stdout } = fakeContext({ tty: true, env: { NO_COLOR: '1' } });
    await printList(ctx, rows, { columns });
    expect(stdout.text).not.toContain('\x1b');
    expect(stdout.text).toContain('TITLE');
  });

  it('terminal: fits the width, truncating the flexible column', async () => {
    const { ctx, stdout } = fakeContext({ tty: true, color: false });
    ctx.io.columns = 50;
    await printList(ctx, [{ ...rows[1]!, title: 'a very long title '.repeat(10) }], { columns });
    for (const line of stdout.text.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(50);
    expect(stdout.text).toContain('…');
  });

  it('terminal: an empty list says so on stderr and prints nothing on stdout', async () => {
    const { ctx, stdout, stderr } = fakeContext({ tty: true });
    await printList(ctx, [], { columns, empty: 'No rows.' });
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe('No rows.\n');
  });

  it('streams long lists in batches with the widths of the first', async () => {
    const { ctx, stdout } = fakeContext({ tty: true, color: false });
    // Ids of one length, as real ones are (a longer id lays its batch out anew: ids are never cut).
    const many = Array.from({ length: 250 }, (_, i) => ({
      ...rows[1]!,
      id: `id${String(i).padStart(3, '0')}`,
      title: `t${i}`,
    }));
    await printList(ctx, slowly(many), { columns, batch: 100 });
    const lines = stdout.text.trimEnd().split('\n');
    expect(lines).toHaveLength(251);
    expect(lines.filter((line) => line.startsWith('ID'))).toHaveLength(1);
    expect(lines[101]!.indexOf('done')).toBe(lines[1]!.indexOf('done'));
  });
});

describe('--jq', () => {
  it('prints strings raw, one per line', async () => {
    const { ctx, stdout } = fakeContext({ tty: false, jq: '.[].id' });
    await printList(ctx, rows, { columns });
    expect(stdout.text).toBe('a1\nb2\n');
  });
  it('prints other values as JSON, compact when piped', async () => {
    const { ctx, stdout } = fakeContext({ tty: false, jq: '.[0] | {id, pinned}' });
    await printList(ctx, rows, { columns });
    expect(stdout.text).toBe('{"id":"a1","pinned":true}\n');
  });
  it('is real jq: select, map, length, @tsv', async () => {
    const { ctx, stdout } = fakeContext({ tty: false, jq: '[.[] | select(.pinned)] | length' });
    await printList(ctx, rows, { columns });
    expect(stdout.text).toBe('1\n');
    const second = fakeContext({ tty: false, jq: '.[] | [.id, .status] | @tsv' });
    await printList(second.ctx, rows, { columns });
    expect(second.stdout.text).toBe('a1\tin_progress\nb2\tdone\n');
  });
  it("a bad expression is a usage error (exit 2) with jq's message", async () => {
    const { ctx } = fakeContext({ tty: false, jq: '.[' });
    await expect(printJson(ctx, { a: 1 })).rejects.toMatchObject({
      exitCode: 2,
      code: 'JQ_ERROR',
      message: expect.stringContaining('syntax error'),
    });
  });
  it('a runtime error is one too', async () => {
    const { ctx } = fakeContext({ tty: false, jq: 'error("boom")' });
    await expect(printJson(ctx, {})).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('boom') });
  });
});

describe('items', () => {
  it('render gets a sanitised copy; --json gets the original object', async () => {
    const item = { name: 'Evil\x1b]0;title\x07 \x1b[31mred' };
    const text = fakeContext({ tty: true });
    await printItem(text.ctx, item, (data) => `name: ${data.name}`);
    expect(text.stdout.text).toBe('name: Evil red\n');
    const json = fakeContext({ tty: false, json: true });
    await printItem(json.ctx, item, () => 'unused');
    expect(JSON.parse(json.stdout.text)).toEqual(item);
    expect(json.stdout.text).not.toContain('\x1b');
  });
});

describe('a closed pipe', () => {
  it('turns EPIPE into PipeClosedError (exit 0, nothing printed)', async () => {
    const broken = new Writable({
      write(_chunk, _enc, done) {
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    await emit(broken, 'first\n').catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    const error = await emit(broken, 'second\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PipeClosedError);
    expect((error as PipeClosedError).exitCode).toBe(0);
  });
});

describe('--jq on a long list', () => {
  it('handles a long input (read in linear time; jq-wasm alone is quadratic) and leaves TextEncoder as it was', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      id: `id${i}`,
      title: `title number ${i}`,
      body: 'x'.repeat(60),
    }));
    const { ctx, stdout } = fakeContext({ tty: false, jq: 'length' });
    const before = globalThis.TextEncoder;
    await printList(ctx, many, { columns: [] });
    expect(stdout.text).toBe('5000\n');
    expect(globalThis.TextEncoder).toBe(before);
  });
});

describe('messages on stderr fit the terminal', () => {
  const long =
    'the folder holds 12 files that are already in the library under the same name, and 3 that follow symbolic links';

  it('a note, a success line and a warning wrap between words at a terminal, under their text; piped they stay one line', async () => {
    const { note, success, warn } = await import('../../src/io/output.js');
    const { displayWidth } = await import('../../src/io/width.js');
    for (const say of [note, success, warn]) {
      const terminal = fakeContext({ tty: true, color: false });
      (terminal.stderr as Capture).columns = 40;
      await say(terminal.ctx, long);
      const lines = terminal.stderr.text.trimEnd().split('\n');
      expect(lines.length).toBeGreaterThan(2);
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(40);
      for (const line of lines.slice(1)) expect(line).toMatch(/^ {2}\S/);
      expect(lines.join(' ').replace(/ {3}/g, ' ')).toContain(long);
      const piped = fakeContext({ tty: false });
      await say(piped.ctx, long);
      expect(piped.stderr.text.split('\n').filter(Boolean).length).toBeLessThanOrEqual(1);
    }
  });

  it('an error and its hint wrap at a terminal, the command in the hint whole; piped they stay one line each', async () => {
    const { reportError } = await import('../../src/io/report.js');
    const { CliError, ExitCode } = await import('../../src/errors.js');
    const error = new CliError(long, {
      code: 'TEST',
      exitCode: ExitCode.USAGE,
      hint: 'make it current with `kagent config use sandbox`, or add `-p sandbox` to the command',
    });
    const terminal = new Capture(true, 40);
    reportError(error, { stderr: terminal, json: false, color: true, debug: false, interrupted: false });
    const lines = terminal.text
      .replace(/\x1b\[[0-9;]*m/g, '')
      .trimEnd()
      .split('\n');
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines.some((line) => line.includes('`kagent config use sandbox`'))).toBe(true);
    // Colour closed where it ends, not carried onto the next lines.
    expect(terminal.text.split('\n')[1]).not.toContain('\x1b[31m');
    const piped = new Capture(false, 40);
    reportError(error, { stderr: piped, json: false, color: false, debug: false, interrupted: false });
    expect(piped.text.trimEnd().split('\n')).toHaveLength(2);
  });
});
