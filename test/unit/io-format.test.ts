import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/io/bytes.js';
import { displayWidth, fieldKey, formatter, formatTime, relativeTime } from '../../src/io/format.js';
import { createIO } from '../../src/io/terminal.js';
import { fitWidths, type Column } from '../../src/io/table.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('times', () => {
  it('are relative on a terminal', () => {
    expect(relativeTime(NOW - 10_000, NOW)).toBe('just now');
    expect(relativeTime(NOW - 5 * 60_000, NOW)).toBe('5 minutes ago');
    expect(relativeTime(NOW - 3 * 3600_000, NOW)).toBe('3 hours ago');
    expect(relativeTime(NOW - 24 * 3600_000, NOW)).toBe('yesterday');
    expect(relativeTime(NOW + 2 * 24 * 3600_000, NOW)).toBe('in 2 days');
    expect(relativeTime(NOW - 400 * 24 * 3600_000, NOW)).toBe('last year');
  });
  it('are ISO 8601 when piped, whether given as ISO text or Unix ms', () => {
    expect(formatTime('2026-01-15T11:00:00.000Z', false, NOW)).toBe('2026-01-15T11:00:00.000Z');
    expect(formatTime(NOW, false, NOW)).toBe('2026-01-15T12:00:00.000Z');
    expect(formatTime(NOW - 120_000, true, NOW)).toBe('2 minutes ago');
  });
  it('pass through what is not a time', () => {
    expect(formatTime('soon', true, NOW)).toBe('soon');
    expect(formatTime(null, true, NOW)).toBe('');
  });
});

describe('widths', () => {
  it('counts CJK and emoji as two columns and colour codes as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('研究')).toBe(4);
    expect(displayWidth('📚')).toBe(2);
    expect(displayWidth('\x1b[31mred\x1b[39m')).toBe(3);
  });

  const columns: Column<Record<string, string>>[] = [
    { header: 'id', value: (r) => r.id },
    { header: 'title', value: (r) => r.title, flex: true },
    { header: 'when', value: (r) => r.when },
  ];
  it('keeps natural widths when the table fits', () => {
    expect(fitWidths(columns, [['sp_1', 'short', 'now']], 80)).toEqual([4, 5, 4]);
  });
  it('shrinks the flexible column first to fit the terminal', () => {
    const widths = fitWidths(columns, [['sp_1', 'x'.repeat(200), 'yesterday']], 60);
    // Two spaces between columns.
    expect(widths.reduce((a, b) => a + b, 0) + 2 * 2).toBe(60);
    expect(widths[0]).toBe(4);
    expect(widths[2]).toBe(9);
  });
});

describe('other values', () => {
  it('bytes read as people say them', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(10 * 1024 ** 3)).toBe('10 GiB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0 MiB');
    expect(formatBytes(100 * 1024 * 1024)).toBe('100 MiB');
  });
  it('labels become stable keys when piped', () => {
    expect(fieldKey('File size')).toBe('file-size');
    expect(fieldKey('credits.monthly')).toBe('credits.monthly');
  });
});

describe('numbers and sizes: for people on a terminal, digits piped, another type as text', () => {
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
    return formatter({ io, clock: { now: () => NOW, sleep: async () => {} } });
  }
  it.each([
    [true, 1234567, '1,234,567', '1.2 MiB'],
    [false, 1234567, '1234567', '1234567'],
    [true, '12 KB', '12 KB', '12 KB'],
    [false, { n: 1 }, '{"n":1}', '{"n":1}'],
    [true, null, '', ''],
  ])('tty %s, %j', (tty, value, number, bytes) => {
    expect(f(tty).number(value)).toBe(number);
    expect(f(tty).bytes(value)).toBe(bytes);
  });
});
