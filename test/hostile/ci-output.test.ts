// CI output that cannot be forged. With GITHUB_ACTIONS set, `lib upload` writes
// one `::error file=…,title=…::…` line per failed file on stderr (the runner
// reads workflow commands there) and a table to $GITHUB_STEP_SUMMARY (which
// GitHub renders as Markdown with HTML). File names on disk and the service's
// error messages are hostile here: escape sequences (OSC, CSI, BEL), a bidi
// override, line breaks that would start a command of their own, `,` and `:`
// that would add a property, Markdown links, HTML images, backticks and pipes.
// What comes out: one annotation line per file, nothing a terminal acts on, and
// a summary whose cells render as text (checked with marked's GFM lexer).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked, type Token } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeLine } from '../../src/io/sanitize.js';
import {
  errorAnnotation,
  markdownCode,
  markdownText,
  stepSummary,
  STEP_SUMMARY_LIMIT,
  SYNC_CI,
  UPLOAD_CI,
} from '../../src/upload/ci-report.js';
import { runCli, tempDir } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const NAMES = [
  'title\x1b]0;pwned\x07\x1b[2J\x9b2J\u202Egnp.md',
  'x\n::error file=forged.md::forged by a file name.md',
  'a,b:c%0A::warning::x.md',
  '[Click](http:evil.example) <img src=x onerror=alert(1)>.md',
  'tick`` `|` and \\| pipe.md',
];
const MESSAGE =
  'refused \x1b]8;;https://evil.example\x07here\x1b]8;;\x07 [Click](https://evil.example) <img src=x onerror=alert(1)> ' +
  '![i](https://evil.example/i.png) **bold** `code` | cell \u202Eevil\r\n::error file=forged.md::forged by the service %0A www.evil.example ada@evil.example &lt;b&gt;';
const CODE = 'BAD\x1b[31m_CODE,x:y|`';
/** What a terminal acts on, or reorders text by. */
const FOREIGN = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let server: TinyServer;
let dir: string;
beforeAll(async () => {
  server = await tinyServer((req) => {
    if (req.url === '/api/v1/me') return { status: 200, body: { limits: {} } };
    return { status: 400, body: { error: { code: CODE, message: MESSAGE } } };
  });
  dir = join(tempDir('kagent-ci-'), 'upload');
  mkdirSync(dir);
  for (const name of NAMES) writeFileSync(join(dir, name), '# hello\n');
});
afterAll(() => server.close());

async function upload() {
  const summary = join(tempDir('kagent-gha-'), 'summary.md');
  writeFileSync(summary, '');
  const r = await runCli(['lib', 'upload', dir], {
    env: {
      KAGENT_BASE_URL: server.baseUrl,
      KAGENT_API_KEY: 'kak_ci0123456789abcdef',
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    },
  });
  return { ...r, summary: readFileSync(summary, 'utf8') };
}

function walk(tokens: Token[] | undefined, seen: Token[]): Token[] {
  for (const token of tokens ?? []) {
    seen.push(token);
    const t = token as Token & {
      tokens?: Token[];
      header?: Array<{ tokens: Token[] }>;
      rows?: Array<Array<{ tokens: Token[] }>>;
    };
    walk(t.tokens, seen);
    for (const cell of t.header ?? []) walk(cell.tokens, seen);
    for (const row of t.rows ?? []) for (const cell of row) walk(cell.tokens, seen);
  }
  return seen;
}

describe('lib upload in GitHub Actions, hostile file names and service messages', () => {
  it('one ::error line per failed file, properties and data escaped, nothing raw', async () => {
    const r = await upload();
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toMatch(FOREIGN);
    expect(r.stdout).not.toMatch(FOREIGN);
    const commands = r.stderr.split('\n').filter((line) => line.startsWith('::'));
    // Only kagent's own annotations: no line the file names or the message started.
    expect(commands).toHaveLength(NAMES.length);
    for (const line of commands) {
      // file=… and title=… hold no raw , or : (which would end or add a property); the data no raw CR or LF.
      expect(line).toMatch(/^::error file=[^,:]*,title=upload failed \([^,:]*\)::[^\r\n]*$/);
      expect(line).toContain('%0A::error file=forged.md::forged by the service %250A');
    }
    expect(
      commands.some((line) =>
        line.startsWith(`::error file=${join(dir, 'x %3A%3Aerror file=forged.md%3A%3Aforged by a file name.md')},`),
      ),
    ).toBe(true);
    expect(
      commands.some((line) => line.startsWith(`::error file=${join(dir, 'a%2Cb%3Ac%250A%3A%3Awarning%3A%3Ax.md')},`)),
    ).toBe(true);
    // The bidi override is shown, not obeyed.
    expect(commands.some((line) => line.includes('title<U+202E>gnp.md'))).toBe(true);
  });

  it('the step summary renders as text: no link, image, HTML or emphasis, one row of four cells per file', async () => {
    const { summary } = await upload();
    expect(summary).not.toMatch(FOREIGN);
    const tokens = walk(marked.lexer(summary, { gfm: true }), []);
    const kinds = new Set(tokens.map((t) => t.type));
    for (const kind of ['link', 'image', 'html', 'em', 'strong', 'del'])
      expect(kinds.has(kind), `a ${kind} in the summary`).toBe(false);
    const table = tokens.find((t) => t.type === 'table') as Token & {
      rows: Array<Array<{ text: string; tokens: Token[] }>>;
    };
    expect(table.rows).toHaveLength(NAMES.length);
    for (const row of table.rows) expect(row).toHaveLength(4);
    // Each cell reads back as the (sanitised) text itself: file names in code spans (or, with a backslash before a
    // pipe, which no code span can hold in a table, as escaped text), the service's code and message as text.
    const text = (cell: { tokens: Token[] } | undefined) => {
      for (const t of cell?.tokens ?? []) expect(['codespan', 'text', 'escape']).toContain(t.type);
      return (cell?.tokens ?? []).map((t) => (t as Token & { text: string }).text).join('');
    };
    const files = table.rows.map((row) => text(row[1]));
    expect(files.sort()).toEqual(NAMES.map((name) => sanitizeLine(join(dir, name))).sort());
    expect(
      table.rows.filter((row) => row[1]?.tokens.length === 1 && row[1]?.tokens[0]?.type === 'codespan'),
    ).toHaveLength(NAMES.length - 1);
    for (const row of table.rows) expect(text(row[3])).toBe(`${sanitizeLine(CODE)}: ${sanitizeLine(MESSAGE)}`);
  });
});

describe('the pieces', () => {
  it('errorAnnotation sanitises, then escapes as GitHub specifies', () => {
    expect(errorAnnotation('a,b:\x1b[2Jc\u202E.md', 'upload failed (X:Y,Z)', '50% done\r\nnext\x07')).toBe(
      '::error file=a%2Cb%3Ac<U+202E>.md,title=upload failed (X%3AY%2CZ)::50%25 done%0Anext\n',
    );
  });

  it('markdownText escapes every Markdown and HTML opening, and nothing more; markdownCode cannot be closed from inside', () => {
    expect(markdownText('[a](b) <i>&amp;</i> *x* _y_ ~~s~~ `c` | z \\. \\q')).toBe(
      '\\[a\\](b) \\<i>\\&amp;\\</i> \\*x\\* \\_y\\_ \\~\\~s\\~\\~ \\`c\\` \\| z \\\\. \\q',
    );
    // What GitHub renders as itself stays as written (issue: `blob\.bin … \(NUL bytes\)\;`, `li\_…`).
    expect(markdownText('see https://x.example, www.x.example, a@x.example')).toBe(
      'see https\\://x.example, www\\.x.example, a\\@x.example',
    );
    expect(markdownText('blob.bin is binary (NUL bytes); see li_8f2k1x, 100% done!')).toBe(
      'blob.bin is binary (NUL bytes); see li_8f2k1x, 100% done!',
    );
    expect(markdownCode('a.md')).toBe('`a.md`');
    expect(markdownCode('a``b')).toBe('```a``b```');
    expect(markdownCode('`x` | y')).toBe('`` `x` \\| y ``');
  });

  it("lib sync's step summary renders hostile names and messages as text too, one row of four cells per change", () => {
    const entries = NAMES.map((path, i) => ({
      path,
      status: i % 2 === 0 ? 'failed' : 'kept',
      item: i % 2 === 0 ? undefined : { id: `li_${i}` },
      reason: i % 2 === 0 ? undefined : MESSAGE,
      error: i % 2 === 0 ? { code: CODE, message: MESSAGE } : undefined,
    }));
    const unchanged = { path: 'same.md', status: 'unchanged' };
    const md = stepSummary(
      SYNC_CI,
      [...entries, unchanged],
      '0 uploaded, 0 replaced, 0 deleted, 1 unchanged, 3 failed',
    );
    expect(md).not.toMatch(FOREIGN);
    const tokens = walk(marked.lexer(md, { gfm: true }), []);
    for (const kind of ['link', 'image', 'html', 'em', 'strong', 'del'])
      expect(
        tokens.some((t) => t.type === kind),
        `a ${kind} in the summary`,
      ).toBe(false);
    const table = tokens.find((t) => t.type === 'table') as Token & { rows: unknown[][] };
    expect(table.rows).toHaveLength(NAMES.length);
    for (const row of table.rows) expect(row).toHaveLength(4);
  });

  it("the step summary stays within GitHub's 1 MiB (what the file already holds counted), saying how many rows were left out", () => {
    const results = Array.from({ length: 20_000 }, (_, i) => ({
      path: `docs/${'long-name-'.repeat(8)}${i}.md`,
      name: `${i}.md`,
      size: 100,
      status: 'uploaded' as const,
      item: { id: `li_${i}` },
    }));
    const counts = '20000 uploaded, 0 already there, 0 failed (2.0 MB)';
    const whole = stepSummary(UPLOAD_CI, results, counts);
    expect(Buffer.byteLength(whole)).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT);
    const shown = whole.split('\n').filter((line) => line.startsWith('| ✅')).length;
    expect(shown).toBeGreaterThan(1000);
    expect(whole).toContain(`> ${20_000 - shown} more rows left out: GitHub shows at most 1 MiB`);
    // Half the room already used by earlier steps: half the rows, still within the limit.
    const half = stepSummary(UPLOAD_CI, results, counts, STEP_SUMMARY_LIMIT / 2);
    expect(Buffer.byteLength(half)).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT / 2);
    // A short run: every row, no such line; sync's summary the same.
    expect(stepSummary(UPLOAD_CI, results.slice(0, 3), counts)).not.toContain('left out');
    const sync = stepSummary(SYNC_CI, results, '20000 uploaded, 0 replaced, 0 deleted, 0 unchanged, 0 failed');
    expect(Buffer.byteLength(sync)).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT);
    expect(sync).toMatch(/> \d+ more rows left out/);
  });
});
