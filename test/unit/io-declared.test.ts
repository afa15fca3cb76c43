// One output declaration per item (src/io/declared.ts): a field table gives the
// terminal's labelled lines, the piped key<TAB>value lines and the help's
// "Piped, …" sentence; a list's columns give "Piped, each row is: …".
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  columnLinks,
  jsonLinks,
  pipedFieldsHelp,
  pipedRowsHelp,
  renderView,
  type ItemView,
} from '../../src/io/declared.js';
import { formatter } from '../../src/io/format.js';
import type { Column } from '../../src/io/table.js';
import { createIO } from '../../src/io/terminal.js';

interface Thing {
  id: string;
  name: string;
  size?: number;
  shared: boolean;
  createdAt: string;
  parts: Array<{ name: string; left: number }>;
  note?: string;
  owner?: { name: string; plan?: { id: string } };
}

const thing: Thing = {
  id: 'th_1',
  name: 'Kettle',
  size: 1536,
  shared: false,
  createdAt: '2026-11-25T09:00:00.000Z',
  parts: [
    { name: 'lid', left: 3 },
    { name: 'base', left: 1200 },
  ],
};

const view: ItemView<Thing> = {
  title: (t, f) => f.bold(t.name),
  fields: [
    { key: 'id', label: 'Id', value: (t) => t.id },
    { key: 'name', value: (t) => t.name },
    { key: 'size-bytes', label: 'Size', value: (t) => t.size, kind: 'bytes' },
    { key: 'shared', label: 'Shared', value: (t) => t.shared, kind: 'bool' },
    { key: 'created', label: 'Created', value: (t) => t.createdAt, kind: 'time' },
    {
      key: 'left.<part>',
      about: 'one per part',
      kind: 'number',
      each: (t) => t.parts.map((p) => ({ key: `left.${p.name}`, label: `  ${p.name}`, value: p.left })),
    },
    { key: 'note', label: 'Note', value: () => undefined },
  ],
};

function f(tty: boolean) {
  const io = createIO(
    {
      stdin: new PassThrough(),
      stdout: Object.assign(new PassThrough(), { isTTY: tty, columns: 80 }),
      stderr: new PassThrough(),
    },
    {},
    { color: false, input: true },
  );
  return formatter({ io, clock: { now: () => Date.parse('2026-11-25T10:00:00Z'), sleep: async () => {} } });
}

describe('an item’s field table', () => {
  it('piped: every field as key<TAB>value in the table’s order, raw values, a field without a value left out', () => {
    expect(renderView(thing, view, f(false))).toBe(
      [
        'id\tth_1',
        'name\tKettle',
        'size-bytes\t1536',
        'shared\tfalse',
        'created\t2026-11-25T09:00:00.000Z',
        'left.lid\t3',
        'left.base\t1200',
      ].join('\n'),
    );
  });

  it('on a terminal: the title, then the labelled fields read for people; unlabelled ones are left to the title', () => {
    const lines = renderView(thing, view, f(true)).split('\n');
    expect(lines[0]).toBe('Kettle');
    expect(lines[1]).toBe('');
    expect(lines.slice(2).map((line) => line.replace(/\s+/g, ' ').trim())).toEqual([
      'Id th_1',
      'Size 1.5 KiB',
      'Shared no',
      'Created 1 hour ago',
      'lid 3',
      'base 1,200',
    ]);
  });

  it('the help names every piped key, in order, with what its kind or `about` says', () => {
    expect(pipedFieldsHelp(view)).toBe(
      'Piped, one `key<TAB>value` line per field: id, name, size-bytes, shared (true/false), created (ISO 8601), left.<part> (one per part), note.',
    );
  });
});

describe('a receipt, a terminal-only line and what follows the fields', () => {
  const receipt: ItemView<Thing> = {
    piped: 'row',
    then: 'Then a `--` line and the parts.',
    fields: [
      { key: 'id', label: 'Id', value: (t) => t.id, json: 'id' },
      { key: 'size', label: 'Size', value: (t) => t.size, kind: 'bytes', json: 'size' },
      { key: 'name', label: 'Name', value: (t) => `${t.name}\twith\na tab`, json: 'name' },
      { key: 'note', label: 'Note', value: () => undefined, json: 'note' },
      { key: 'left', label: 'Left', only: 'tty', display: () => '3 left' },
    ],
  };

  it('piped as one row in the table’s order: a missing value an empty cell, tabs and newlines flattened', () => {
    expect(renderView(thing, receipt, f(false))).toBe('th_1\t1536\tKettle with a tab\t');
  });

  it('a terminal-only field is shown on a terminal, never piped nor named in the help', () => {
    expect(renderView(thing, receipt, f(true))).toMatch(/^Left\s+3 left$/m);
    expect(pipedFieldsHelp(receipt)).toBe(
      'Piped, one tab-separated row: id, size, name, note. Then a `--` line and the parts. ' +
        "`--json FIELDS` takes these keys or the API's field names, and gives the API's values (a name that is both is the API's).",
    );
  });

  it('--json takes the keys that name their API field; the help names them when not all do', () => {
    expect([...jsonLinks(receipt)]).toEqual([
      ['id', 'id'],
      ['size', 'size'],
      ['name', 'name'],
      ['note', 'note'],
    ]);
    const some: ItemView<Thing> = {
      fields: [
        { key: 'id', value: (t) => t.id, json: 'id' },
        { key: 'created', value: (t) => t.createdAt, kind: 'time', json: 'createdAt' },
        { key: 'parts', value: (t) => t.parts.length },
      ],
    };
    expect(pipedFieldsHelp(some)).toBe(
      'Piped, one `key<TAB>value` line per field: id, created (ISO 8601), parts. ' +
        "`--json FIELDS` takes the keys id, created or the API's field names, and gives the API's values (a name that is both is the API's).",
    );
    expect(pipedFieldsHelp(view)).not.toContain('--json');
  });
});

describe('a list’s columns', () => {
  it('the help names the piped columns in order (terminal-only ones left out), with what each says', () => {
    const columns: Column<Thing>[] = [
      { header: 'Id', value: (t) => t.id },
      { header: 'Name', value: (t) => t.name, display: (t) => `★ ${t.name}` },
      { header: '', value: () => '●', only: 'tty' },
      { header: 'Shared', value: (t) => t.shared, kind: 'bool' },
      { header: 'Created', value: (t) => t.createdAt, kind: 'time' },
      { header: 'Owner', value: () => 'u_1', only: 'plain', about: 'id' },
    ];
    expect(pipedRowsHelp(columns)).toBe(
      'Piped, each row is: id, name, shared (true/false), created (ISO 8601), owner (id).',
    );
    const linked = columns.map((column) =>
      column.header === 'Id' || column.header === 'Created'
        ? { ...column, json: column.header === 'Id' ? 'id' : 'createdAt' }
        : column,
    );
    expect(pipedRowsHelp(linked)).toBe(
      'Piped, each row is: id, name, shared (true/false), created (ISO 8601), owner (id). ' +
        "`--json FIELDS` takes the names id, created or the API's field names, and gives the API's values (a name that is both is the API's).",
    );
    expect([...columnLinks(linked)]).toEqual([
      ['id', 'id'],
      ['created', 'createdAt'],
    ]);
  });
});

describe('a field that names its API field and no value', () => {
  const owned: Thing = { ...thing, owner: { name: 'Ada', plan: { id: 'pro' } } };
  const view: ItemView<Thing> = {
    fields: [
      { key: 'id', label: 'Id', json: 'id' },
      { key: 'owner', label: 'Owner', json: 'owner.name' },
      { key: 'plan', label: 'Plan', json: 'owner.plan.id' },
      { key: 'note', label: 'Note', json: 'note' },
    ],
  };

  it('shows the value at that path, piped and on a terminal; a missing way is no line', () => {
    expect(renderView(owned, view, f(false))).toBe('id\tth_1\nowner\tAda\nplan\tpro');
    expect(renderView(thing, view, f(false))).toBe('id\tth_1');
    expect(renderView(owned, view, f(true))).toMatch(/^Owner\s+Ada$/m);
    expect(jsonLinks(view)).toEqual(
      new Map([
        ['id', 'id'],
        ['owner', 'owner.name'],
        ['plan', 'owner.plan.id'],
        ['note', 'note'],
      ]),
    );
  });

  it('a path the item’s type does not have does not compile', () => {
    // @ts-expect-error: no such field
    const typo: ItemView<Thing> = { fields: [{ key: 'owner', json: 'owner.nme' }] };
    expect(typo.fields).toHaveLength(1);
  });
});
