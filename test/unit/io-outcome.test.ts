// The output shapes of src/io/outcome.ts, each in the three modes of a run: a
// terminal, a pipe and --json. Commands rely on them instead of asking the mode.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context, GlobalFlags } from '../../src/context.js';
import {
  aside,
  atTerminal,
  doneEach,
  printBody,
  printDone,
  printOwnWay,
  printPieces,
  printValue,
  printView,
} from '../../src/io/outcome.js';
import { createIO } from '../../src/io/terminal.js';

class Capture extends Writable {
  text = '';
  writes = 0;
  constructor(
    public isTTY: boolean,
    public columns = 100,
  ) {
    super();
  }
  override _write(chunk: Buffer, _e: BufferEncoding, done: () => void) {
    this.text += chunk.toString();
    this.writes++;
    done();
  }
}

type Mode = 'terminal' | 'piped' | 'json';

function run(mode: Mode, columns = 100) {
  const tty = mode === 'terminal';
  const stdout = new Capture(tty, columns);
  const stderr = new Capture(tty, columns);
  const flags: GlobalFlags = {
    json: mode === 'json',
    color: false,
    input: true,
    yes: false,
    quiet: false,
    debug: false,
    insecure: false,
  };
  const io = createIO({ stdin: Object.assign(new Capture(tty), { read() {} }) as never, stdout, stderr }, {}, flags);
  const ctx = { io, flags, clock: { now: () => 0, sleep: async () => {} } } as unknown as Context;
  return { ctx, stdout, stderr };
}

const item = { id: 'sp_1', name: 'Travel' };

describe('printDone: what a write did', () => {
  const done = { said: 'Deleted sp_1', piped: (s: typeof item) => s.id };

  it('on a terminal: nothing on stdout, the ✓ line on stderr', async () => {
    const { ctx, stdout, stderr } = run('terminal');
    await printDone(ctx, item, done);
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe('✓ Deleted sp_1\n');
  });

  it('piped: its line on stdout, no ✓ line (stderr is no terminal)', async () => {
    const { ctx, stdout, stderr } = run('piped');
    await printDone(ctx, item, done);
    expect(stdout.text).toBe('sp_1\n');
    expect(stderr.text).toBe('');
  });

  it('--json: the item, or the answer it came in when given', async () => {
    const plain = run('json');
    await printDone(plain.ctx, item, done);
    expect(JSON.parse(plain.stdout.text)).toEqual(item);
    const answer = run('json');
    await printDone(answer.ctx, item, { ...done, json: () => ({ space: item, moved: 3 }) });
    expect(JSON.parse(answer.stdout.text)).toEqual({ space: item, moved: 3 });
  });

  it('shows what `shown` draws on a terminal; a note is an aside (not with --json)', async () => {
    const terminal = run('terminal');
    await printDone(terminal.ctx, item, { shown: (s) => `Created ${s.name}`, note: 'next: space list' });
    expect(terminal.stdout.text).toBe('Created Travel\n');
    expect(terminal.stderr.text).toBe('next: space list\n');
    const json = run('json');
    await printDone(json.ctx, item, { note: 'next: space list' });
    expect(json.stderr.text).toBe('');
  });
});

describe('printView: one item, two renderings', () => {
  const view = { terminal: (s: typeof item) => `Name  ${s.name}`, piped: (s: typeof item) => `name\t${s.name}` };
  it.each([
    ['terminal', 'Name  Travel\n'],
    ['piped', 'name\tTravel\n'],
  ] as const)('%s', async (mode, expected) => {
    const { ctx, stdout } = run(mode);
    await printView(ctx, item, view);
    expect(stdout.text).toBe(expected);
  });
});

describe('doneEach: writes one after another', () => {
  async function deleteTwo(mode: Mode) {
    const r = run(mode);
    const each = doneEach<{ id: string; deleted: boolean }>(r.ctx, {
      said: (x) => `Deleted ${x.id}`,
      piped: (x) => x.id,
    });
    await each.add({ id: 'a', deleted: true });
    each.items.push({ id: 'b', deleted: false });
    await each.end();
    return r;
  }

  it('piped: a line each as it is done', async () => {
    expect((await deleteTwo('piped')).stdout.text).toBe('a\n');
  });
  it('on a terminal: a ✓ line each', async () => {
    const { stdout, stderr } = await deleteTwo('terminal');
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe('✓ Deleted a\n');
  });
  it('--json: one array at the end, with what the command recorded itself', async () => {
    expect(JSON.parse((await deleteTwo('json')).stdout.text)).toEqual([
      { id: 'a', deleted: true },
      { id: 'b', deleted: false },
    ]);
  });
});

describe('a text that is the result', () => {
  const doc = { id: 'doc_1', body: 'Hello \u202e world' };
  const body = { terminal: () => 'RENDERED\n', piped: (d: typeof doc) => d.body };

  it('printBody: rendered on a terminal, the text piped (as held, or sanitised), --json the item', async () => {
    const terminal = run('terminal');
    await printBody(terminal.ctx, doc, body);
    expect(terminal.stdout.text).toBe('RENDERED\n');
    const held = run('piped');
    await printBody(held.ctx, doc, { ...body, asHeld: true });
    expect(held.stdout.text).toBe('Hello \u202e world');
    const sanitised = run('piped');
    await printBody(sanitised.ctx, doc, body);
    expect(sanitised.stdout.text).toBe('Hello <U+202E> world');
    const json = run('json');
    await printBody(json.ctx, doc, body);
    expect(JSON.parse(json.stdout.text)).toEqual(doc);
  });

  it('printPieces: one write a piece, ending with one newline; --json the array of pieces', async () => {
    async function* pieces() {
      yield { text: 'one ', last: false };
      yield { text: 'two\n\n', last: true };
    }
    const piece = { text: (p: { text: string }) => p.text, last: (p: { last: boolean }) => p.last };
    const piped = run('piped');
    await printPieces(piped.ctx, pieces(), piece);
    expect(piped.stdout.text).toBe('one two\n');
    expect(piped.stdout.writes).toBe(2);
    const json = run('json');
    await printPieces(json.ctx, pieces(), piece);
    expect(JSON.parse(json.stdout.text)).toEqual([
      { text: 'one ', last: false },
      { text: 'two\n\n', last: true },
    ]);
  });
});

describe('the rest of the shapes', () => {
  it('printValue: the value as it is on a terminal and piped, --json the item', async () => {
    for (const mode of ['terminal', 'piped'] as const) {
      const { ctx, stdout } = run(mode);
      await printValue(ctx, { token: 'kg_1' }, (t) => t.token);
      expect(stdout.text).toBe('kg_1\n');
    }
    const json = run('json');
    await printValue(json.ctx, { token: 'kg_1' }, (t) => t.token);
    expect(JSON.parse(json.stdout.text)).toEqual({ token: 'kg_1' });
  });

  it('printOwnWay: the view prints unless --json, and says whether it did', async () => {
    const shown: string[] = [];
    const piped = run('piped');
    expect(await printOwnWay(piped.ctx, item, async (s) => void shown.push(s.id))).toBe(true);
    const json = run('json');
    expect(await printOwnWay(json.ctx, item, async (s) => void shown.push(s.id))).toBe(false);
    expect(shown).toEqual(['sp_1']);
    expect(JSON.parse(json.stdout.text)).toEqual(item);
  });

  it('aside and atTerminal: for a person reading text, never with --json', async () => {
    const piped = run('piped');
    await aside(piped.ctx, 'Profile "default"');
    expect(piped.stderr.text).toBe('Profile "default"\n');
    const json = run('json');
    await aside(json.ctx, 'Profile "default"');
    expect(json.stderr.text).toBe('');
    expect([atTerminal(run('terminal').ctx), atTerminal(run('piped').ctx), atTerminal(run('json').ctx)]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
