// Which columns go first when a table is too wide (src/io/table.ts): those that
// tell nothing on the rows shown (empty everywhere, or the same in every row),
// then by the priority the view declares, the title last of all.
import { describe, expect, it } from 'vitest';
import { dropOrderOf, fitWidths, type Column } from '../../src/io/table.js';

type Row = Record<string, string>;
const col = (header: string, extra: Partial<Column<Row>> = {}): Column<Row> => ({
  header,
  value: (r) => r[header],
  ...extra,
});

describe('the drop order of a table too wide', () => {
  // actions list: ID RISK TOOL TITLE FOR CREATED
  const actions = [
    col('id'),
    col('risk'),
    col('tool'),
    col('title', { flex: true }),
    col('for'),
    col('created', { kind: 'time' }),
  ];
  const rows = [
    ['ac_3k9x0q2m7d', 'low', 'create_doc', 'Create the document “Notes on rye”', 'cv_8f2k1x9q0m', '5 minutes ago'],
    ['ac_7h2m4p9x1c', 'medium', 'save_link', 'Save the article about einkorn', 'cv_2m8k4x7q1p', '1 hour ago'],
  ];

  it('a flexible column with a declared priority goes by it, not last (lib list: SOURCE before KIND and SPACE)', () => {
    const lib = [
      col('id'),
      col('kind'),
      col('title', { flex: true }),
      col('source', { flex: true, priority: 3 }),
      col('space'),
      col('saved', { kind: 'time' }),
    ];
    const cells = [
      ['li_8f2k3xq9mz', 'file', 'notes', 'notes.md', 'Research', '2 minutes ago'],
      ['li_3m9q7zkw4c', 'link', 'Harbour Expansion Plans', 'https://example.com/harbour', 'Personal', 'yesterday'],
    ];
    expect(dropOrderOf(lib, cells)).toEqual([5, 3, 4, 1, 2]);
  });

  it('the title is the last column to go; times first', () => {
    expect(dropOrderOf(actions, rows)).toEqual([5, 4, 2, 1, 3]);
  });

  it('at 40 columns the title stays and TOOL goes', () => {
    const widths = fitWidths(actions, rows, 40);
    expect(widths[3]).toBeGreaterThanOrEqual(10);
    expect(widths[2]).toBe(0);
    expect(widths[0]).toBe(13);
  });

  it('constant and empty columns go first (conversation list: CHANNEL always "api", RUNNING empty)', () => {
    const conversations = [
      col('id'),
      col('title', { flex: true }),
      col('messages', { kind: 'number' }),
      col('channel'),
      col('running'),
      col('updated', { kind: 'time' }),
    ];
    const cells = [
      ['cv_1', 'Vector search notes and what to read next', '4', 'api', '', '2 minutes ago'],
      ['cv_2', 'Sourdough starter questions', '12', 'api', '', 'yesterday'],
    ];
    expect(dropOrderOf(conversations, cells).slice(0, 2).sort()).toEqual([3, 4]);
    const widths = fitWidths(conversations, cells, 80);
    expect(widths.reduce((a, b) => a + b, 0) + 2 * (widths.filter((w) => w > 0).length - 1)).toBeLessThanOrEqual(80);
    expect(widths[3]).toBe(0);
    expect(widths[4]).toBe(0);
    expect(widths[5]).toBeGreaterThan(0);
    // The title is whole: the silent columns made the room.
    expect(widths[1]).toBe(41);
  });

  it('one row: its values are not "constant"; only an empty cell tells nothing', () => {
    expect(dropOrderOf(actions, [rows[0]!])).toEqual([5, 4, 2, 1, 3]);
    expect(dropOrderOf(actions, [['ac_1', 'low', '', 'T', 'cv_1', 'now']])[0]).toBe(2);
  });
});
