// Display width, cutting and wrapping (src/io/width.ts) and tables that always
// fit (src/io/table.ts): emoji, CJK, combining marks, colour and hyperlinks.
import { describe, expect, it } from 'vitest';
import { formatter } from '../../src/io/format.js';
import { createIO } from '../../src/io/terminal.js';
import { fitWidths, renderTable, type Column } from '../../src/io/table.js';
import { guardOutput } from '../../src/io/sanitize.js';
import { displayWidth, truncate, wrapText } from '../../src/io/width.js';
import { PassThrough } from 'node:stream';

const strip = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\x1b\]8;[^\x07]*\x07/g, '');
const widest = (text: string) => Math.max(...text.split('\n').map((line) => displayWidth(line)));

describe('displayWidth', () => {
  it('measures emoji, CJK and combining marks as a terminal shows them', () => {
    expect(displayWidth('🚀')).toBe(2);
    expect(displayWidth('✅')).toBe(2);
    expect(displayWidth('⚠️')).toBe(2);
    expect(displayWidth('👩‍💻')).toBe(2);
    expect(displayWidth('研究')).toBe(4);
    expect(displayWidth('ｆｕｌｌ')).toBe(8);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('\x1b[31mred\x1b[39m')).toBe(3);
    expect(displayWidth('\x1b]8;;https://example.com\x07link\x1b]8;;\x07')).toBe(4);
  });
});

describe('truncate', () => {
  it('cuts at display width and ends with …', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('🚀 Launch ✅ done', 10)).toBe('🚀 Launch…');
    expect(truncate('研究项目研究项目', 7)).toBe('研究项…');
    expect(displayWidth(truncate('研究项目研究项目', 6))).toBeLessThanOrEqual(6);
    // A combining mark stays with its letter.
    expect(truncate('cafe\u0301 au lait', 6)).toBe('cafe\u0301 …');
  });
  it('keeps colour and closes what it leaves open', () => {
    const cut = truncate('\x1b[31mred text here\x1b[39m', 6);
    expect(cut).toBe('\x1b[31mred t…\x1b[0m');
    expect(displayWidth(cut)).toBe(6);
  });
  it('never exceeds the width, whatever the text', () => {
    const samples = ['⚠️⚠️⚠️⚠️⚠️', '👩‍💻👩‍💻👩‍💻 dev', 'ab研cd究ef', 'x'.repeat(50)];
    for (const sample of samples)
      for (let w = 1; w <= 12; w++) expect(displayWidth(truncate(sample, w))).toBeLessThanOrEqual(w);
  });
});

describe('wrapText', () => {
  const latin =
    'The quick brown fox jumps over the lazy dog and keeps running until the forest ends near the river bank';

  it('wraps Latin text at spaces, never inside a word', () => {
    for (const width of [20, 33, 40, 60]) {
      const wrapped = wrapText(latin, width);
      expect(widest(wrapped)).toBeLessThanOrEqual(width);
      expect(wrapped.replace(/\n/g, ' ')).toBe(latin);
    }
  });

  it('breaks CJK text between any two characters, and at the width exactly', () => {
    const cjk = '这是一个很长的中文段落，用来测试换行是否正确处理宽字符，不会超出终端宽度。';
    const wrapped = wrapText(cjk, 20);
    const lines = wrapped.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(displayWidth(line)).toBe(20);
    expect(lines.join('')).toBe(cjk);
    // Mixed: Latin words stay whole beside CJK.
    const mixed = wrapText('混合的文字 mixed with English words 和中文 in one paragraph', 16);
    expect(widest(mixed)).toBeLessThanOrEqual(16);
    for (const word of ['mixed', 'English', 'words', 'paragraph'])
      expect(mixed.split(/\s+|(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])/)).toContain(word);
  });

  it('never splits a URL, even when it is wider than the line', () => {
    const url = 'https://example.com/a/very/long/path/that/goes/on/and/on';
    const wrapped = wrapText(`See ${url} for more`, 30);
    expect(wrapped.split('\n')).toContain(url);
  });

  it('splits a single Latin word only when it alone is wider than the line', () => {
    const wrapped = wrapText('Supercalifragilisticexpialidocious', 10);
    expect(wrapped.split('\n').map((line) => displayWidth(line))).toEqual([10, 10, 10, 4]);
  });

  it('indents continuation lines under a list item’s text and keeps the indentation of nested ones', () => {
    const wrapped = wrapText(`  * ${latin}\n    1. ${latin}`, 40);
    const lines = wrapped.split('\n');
    expect(lines[0]).toMatch(/^ {2}\* The quick/);
    const firstItem = lines.slice(
      1,
      lines.findIndex((line) => line.startsWith('    1. ')),
    );
    expect(firstItem.length).toBeGreaterThan(0);
    for (const line of firstItem) expect(line).toMatch(/^ {4}\S/);
    const nested = lines.slice(lines.findIndex((line) => line.startsWith('    1. ')) + 1);
    for (const line of nested) expect(line).toMatch(/^ {7}\S/);
    expect(widest(wrapped)).toBeLessThanOrEqual(40);
  });

  it('carries colour and hyperlinks across a break: each line closes and reopens them', () => {
    const styled = `\x1b[3m${latin}\x1b[23m`;
    const lines = wrapText(styled, 30).split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines.slice(0, -1)) expect(line.endsWith('\x1b[0m')).toBe(true);
    for (const line of lines.slice(1)) expect(line.startsWith('\x1b[3m')).toBe(true);
    const link = `\x1b]8;;https://example.com\x07${latin}\x1b]8;;\x07`;
    const linked = wrapText(link, 30).split('\n');
    for (const line of linked.slice(0, -1)) expect(line.endsWith('\x1b]8;;\x07')).toBe(true);
    for (const line of linked.slice(1)) expect(line.startsWith('\x1b]8;;https://example.com\x07')).toBe(true);
    expect(strip(wrapText(link, 30)).replace(/\n/g, ' ')).toBe(latin);
  });

  it('reopens only the styles still open at a break: a colour closed with its own code stays closed', () => {
    const error = `\x1b[31merror:\x1b[39m ${latin}`;
    const lines = wrapText(error, 30, { hanging: 2 }).split('\n');
    expect(lines[0]).toMatch(/^\x1b\[31merror:\x1b\[39m /);
    // Nothing open after `error:`: no reset at the break, no red on the next line.
    for (const line of lines) expect(line).not.toMatch(/\x1b\[0m$/);
    for (const line of lines.slice(1)) expect(line).not.toContain('\x1b[31m');
    // Bold inside dim, a 256-colour and a truecolour foreground, each closed by its own code.
    const mixed = `\x1b[2mhint:\x1b[22m \x1b[38;5;208m${latin}\x1b[39m and \x1b[38;2;1;2;3mmore words here\x1b[39m done`;
    const out = wrapText(mixed, 30).split('\n');
    expect(out[1]?.startsWith('\x1b[38;5;208m')).toBe(true);
    expect(out.at(-1)).not.toContain('\x1b[38;5;208m');
    expect(strip(wrapText(mixed, 30)).replace(/\n\s*/g, ' ')).toBe(strip(mixed));
  });

  it('keeps a command in backticks whole, on the next line when it does not fit, past the edge only when it alone is wider', () => {
    const hint = 'make it current with `kagent config use sandbox`, or add `-p sandbox` to the command';
    const wrapped = wrapText(hint, 40, { hanging: 2 });
    expect(wrapped).toContain('`kagent config use sandbox`,');
    expect(wrapped).toContain('`-p sandbox`');
    for (const line of wrapped.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    const long = 'see the price first with `kagent media quote https://www.youtube.com/watch?v=abc123`';
    const lines = wrapText(long, 40, { hanging: 2 }).split('\n');
    expect(lines).toEqual([
      'see the price first with',
      '  `kagent media quote https://www.youtube.com/watch?v=abc123`',
    ]);
    // An unclosed backtick is text like any other.
    expect(wrapText('a `b c d e f g h i', 8).split('\n').length).toBeGreaterThan(1);
  });

  it('closes a link opened with ST by ST at a break (the output gate lets only ST-ended links through)', () => {
    const link = `\x1b]8;;https://example.com\x1b\\${latin}\x1b]8;;\x1b\\`;
    const lines = wrapText(link, 30).split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines.slice(0, -1)) expect(line.endsWith('\x1b]8;;\x1b\\')).toBe(true);
    for (const line of lines.slice(1)) expect(line.startsWith('\x1b]8;;https://example.com\x1b\\')).toBe(true);
    expect(guardOutput(wrapText(link, 30))).toBe(wrapText(link, 30));
  });

  it('leaves lines that fit as they are', () => {
    expect(wrapText('short line\n\n  * item', 40)).toBe('short line\n\n  * item');
  });
});

describe('tables that always fit', () => {
  interface Row {
    id: string;
    title: string;
    kind: string;
    owner: string;
    created: string;
  }
  const columns: Column<Row>[] = [
    { header: 'Id', value: (r) => r.id },
    { header: 'Title', value: (r) => r.title, flex: true },
    { header: 'Kind', value: (r) => r.kind },
    { header: 'Owner', value: (r) => r.owner, priority: 2 },
    { header: 'Created', value: (r) => r.created, kind: 'time' },
  ];
  const rows: Row[] = [
    {
      id: 'sp_h4qsn5smtf',
      title: '🚀 Launch plan ✅ ready ⚠️ check the 研究项目 notes before Friday',
      kind: 'notes',
      owner: 'Ada Lovelace',
      created: '2026-11-20T10:00:00Z',
    },
    {
      id: 'sp_c5eib86n8w',
      title: '研究项目：人工智能与知识管理的长期研究计划和阶段性成果汇总',
      kind: 'report',
      owner: 'Grace Hopper',
      created: '2026-11-21T10:00:00Z',
    },
    { id: 'sp_b77szdmck7', title: 'Cafe\u0301 menu', kind: 'list', owner: '李雷', created: '2026-11-22T10:00:00Z' },
  ];
  const io = (columns: number) =>
    createIO(
      {
        stdin: new PassThrough(),
        stdout: Object.assign(new PassThrough(), { isTTY: true, columns }),
        stderr: new PassThrough(),
      },
      {},
      { color: true, input: true },
    );
  const render = (width: number) =>
    renderTable(
      rows,
      columns,
      formatter({ io: io(width), clock: { now: () => Date.parse('2026-11-25T10:00:00Z'), sleep: async () => {} } }),
      undefined,
    ).text;

  it('no row is wider than the terminal, from 40 columns up; ids are whole', () => {
    for (let width = 40; width <= 200; width += 1) {
      const text = render(width);
      for (const line of text.split('\n'))
        expect(displayWidth(line), `at ${width} columns: ${strip(line)}`).toBeLessThanOrEqual(width);
      for (const row of rows) expect(strip(text)).toContain(row.id);
    }
  });

  it('drops the lowest-priority columns first (times), then cuts cells with …', () => {
    const wide = strip(render(200));
    expect(wide.split('\n')[0]).toMatch(/^ID +TITLE +KIND +OWNER +CREATED$/);
    expect(wide).toContain(rows[0]!.title);
    // At 60 every column still fits once the title gives way.
    expect(strip(render(60)).split('\n')[0]).toMatch(/^ID +TITLE +KIND +OWNER +CREATED$/);
    expect(strip(render(60)).split('\n')[1]).toContain('…');
    const narrow = strip(render(50)).split('\n');
    expect(narrow[0]).toMatch(/^ID +TITLE +KIND +OWNER$/);
    expect(narrow[0]).toMatch(/^ID +TITLE/);
    expect(narrow[1]).toContain('…');
    const narrowest = strip(render(40)).split('\n');
    expect(narrowest[0]).toMatch(/^ID +TITLE +KIND$/);
  });

  it('widths: natural when they fit, the flexible column gives way first, the id never', () => {
    const cells = [['sp_1', 'x'.repeat(80), 'kind', 'owner', 'yesterday']];
    expect(fitWidths(columns, [['sp_1', 'short', 'k', 'o', 'now']], 200)).toEqual([4, 5, 4, 5, 7]);
    const widths = fitWidths(columns, cells, 60);
    expect(widths[0]).toBe(4);
    expect(widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.filter((w) => w > 0).length - 1)).toBeLessThanOrEqual(
      60,
    );
    expect(widths.slice(2)).toEqual([4, 5, 9]);
    // An id longer than the screen is still whole; everything else gives up its room.
    const huge = fitWidths(columns, [['id_'.padEnd(38, 'x'), 'title', 'k', 'o', 'now']], 40);
    expect(huge[0]).toBe(38);
  });
});

describe('labelled fields on a terminal', () => {
  it('a long value wraps under itself, within the width', () => {
    const io = createIO(
      {
        stdin: new PassThrough(),
        stdout: Object.assign(new PassThrough(), { isTTY: true, columns: 40 }),
        stderr: new PassThrough(),
      },
      {},
      { color: false, input: true },
    );
    const f = formatter({ io, clock: { now: () => 0, sleep: async () => {} } });
    const text = f.fields([
      ['Title', 'A fairly long title that will not fit on one line of forty columns'],
      ['Id', 'li_123'],
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^Title {2}A fairly/);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines.slice(1, -1)) expect(line).toMatch(/^ {7}\S/);
    expect(lines.at(-1)).toBe('Id     li_123');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(40);
  });
});
