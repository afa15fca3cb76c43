// `kagent lib` reading and changing commands against the sandbox, in-process:
// list, search, show, text, save, edit, delete — terminal, piped and --json,
// and their error paths with exit codes.
import libShow from '../../commands/lib/show.js';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes, runCli } from '../helpers/run.js';
import { unwrap } from '../helpers/binary.js';
import { pipedKeysOf } from '../helpers/piped-help.js';

let s: LoggedIn;
/** A fresh account per describe block: the library starts empty. */
let key: string;

beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(() => s.close());

async function freshAccount(options: { credits?: number } = {}) {
  ({ apiKey: key } = await s.t.newAccount({ credits: options.credits ?? 10_000 }));
}

const kagent = (argv: string[], options: Parameters<LoggedIn['kagent']>[1] = {}) =>
  s.kagent(argv, { ...options, env: { KAGENT_API_KEY: key, ...options.env } });

async function uploadText(name: string, text: string, query: Record<string, string> = {}) {
  const res = await s.t.call('POST', '/library/files', {
    key,
    raw: text,
    query,
    headers: { 'content-type': 'application/octet-stream', 'x-file-name': encodeURIComponent(name) },
  });
  expect(res.status).toBe(201);
  return res.body.item;
}

async function saveLink(url: string, body: Record<string, unknown> = {}) {
  const res = await s.t.call('POST', '/library', { key, body: { url, ...body } });
  expect(res.status).toBe(201);
  return res.body.item;
}

async function libraryIds(): Promise<string[]> {
  const res = await s.t.call('GET', '/library', { key, query: { limit: 200 } });
  return res.body.items.map((i: { id: string }) => i.id);
}

async function createSpace(name: string): Promise<string> {
  const res = await s.t.call('POST', '/spaces', { key, body: { name } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const LONG_TEXT =
  Array.from({ length: 400 }, (_, i) => `Line ${i + 1}: the harbour expansion budget review, paragraph ${i + 1}.`).join(
    '\n',
  ) + '\n';

describe('lib list', () => {
  let link: any;
  let file: any;
  let research: string;
  beforeAll(async () => {
    await freshAccount();
    research = await createSpace('Research');
    link = await saveLink('https://example.com/articles/harbour-expansion', { note: 'read later' });
    file = await uploadText('notes.md', '# Notes\n\nThe harbour expansion is ahead of schedule.\n', {
      space: research,
    });
  });

  it('piped: one tab-separated row per item, newest first: id, kind, title, saved, space, source', async () => {
    const r = await kagent(['lib', 'list']);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows.map((row) => row[0])).toEqual([file.id, link.id]);
    expect(rows[0]).toEqual([file.id, 'file', file.title, file.createdAt, research, 'notes.md']);
    expect(rows[1]).toEqual([
      link.id,
      'link',
      link.title,
      link.createdAt,
      link.spaceId,
      'https://example.com/articles/harbour-expansion',
    ]);
    expect(r.stderr).toBe('');
  });

  it('--json: the API objects as an array; --kind and --space filter (space by name)', async () => {
    const all = await kagent(['lib', 'list', '--json']);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual([file, link]);
    const files = await kagent(['lib', 'list', '--kind', 'file', '--json']);
    expect(JSON.parse(files.stdout).map((i: any) => i.id)).toEqual([file.id]);
    const inResearch = await kagent(['lib', 'list', '--space', 'research', '--json']);
    expect(JSON.parse(inResearch.stdout).map((i: any) => i.id)).toEqual([file.id]);
    const ids = await kagent(['lib', 'list', '--jq', '.[].id']);
    expect(ids.stdout).toBe(`${file.id}\n${link.id}\n`);
  });

  it('terminal: a table with headers and space names', async () => {
    const r = await kagent(['lib', 'list'], { tty: true, columns: 200, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+KIND\s+TITLE\s+SOURCE\s+SPACE\s+SAVED$/);
    expect(rows[0]).toContain(file.id);
    expect(rows[0]).toContain('Research');
    expect(rows[0]).toContain('notes.md');
    expect(rows[1]).toContain('example.com/articles/harbour-expansion');
    expect(hasForeignEscapes(r.stdout)).toBe(false);
    // Narrower: SAVED and SOURCE go first; KIND and SPACE stay while the title keeps its room.
    const narrow = await kagent(['lib', 'list'], { tty: true, columns: 45, env: { NO_COLOR: '1' } });
    const [head, ...lines] = narrow.stdout.trimEnd().split('\n');
    expect(head).toMatch(/^ID\s+KIND\s+TITLE\s+SPACE$/);
    expect(lines[0]).toContain('Research');
    for (const line of [head!, ...lines]) expect(line.length).toBeLessThanOrEqual(45);
  });

  it('--limit caps, --all follows every page; both together is a usage error', async () => {
    const one = await kagent(['lib', 'list', '--limit', '1']);
    expect(one.stdout.trimEnd().split('\n')).toHaveLength(1);
    const both = await kagent(['lib', 'list', '--limit', '1', '--all']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--limit or --all/);
  });

  it('--all reads past the first page (205 items → 2 pages of at most 200)', async () => {
    await freshAccount();
    for (let i = 0; i < 205; i++) await saveLink(`https://example.com/page/${i}`);
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const r = await kagent(['lib', 'list', '--all']);
    expect(r.code).toBe(0);
    const ids = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t')[0]);
    expect(new Set(ids).size).toBe(205);
    const stats = (await s.t.call('GET', '/_sandbox/stats', { key: null })).body;
    expect(stats.requests.listLibrary).toBe(2);
    // Without --all only the first page (the service's 50).
    const first = await kagent(['lib', 'list']);
    expect(first.stdout.trimEnd().split('\n')).toHaveLength(50);
  });

  it('an empty library says so on a terminal, prints nothing piped and [] with --json', async () => {
    await freshAccount();
    const tty = await kagent(['lib', 'list'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/Nothing in the library/);
    const piped = await kagent(['lib', 'list']);
    expect(piped.stdout).toBe('');
    const json = await kagent(['lib', 'list', '--json']);
    expect(json.stdout).toBe('[]\n');
  });

  it('bad flags are usage errors before any request', async () => {
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const kind = await kagent(['lib', 'list', '--kind', 'video']);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toMatch(/--kind/);
    const limit = await kagent(['lib', 'list', '--limit', '0']);
    expect(limit.code).toBe(2);
    const stats = (await s.t.call('GET', '/_sandbox/stats', { key: null })).body;
    expect(stats.requests).toEqual({});
  });

  it('an unknown space is exit 4 with a hint', async () => {
    const r = await kagent(['lib', 'list', '--space', 'Nope']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no space with id or name "Nope" \(SPACE_NOT_FOUND\)/);
  });
});

describe('lib search', () => {
  let hit: any;
  beforeAll(async () => {
    await freshAccount();
    hit = await uploadText('budget.txt', 'The harbour expansion budget was approved on Monday.\n');
    await saveLink('https://example.com/recipes/bread');
  });

  it('finds items by their text; piped rows, --json array, terminal table', async () => {
    const piped = await kagent(['lib', 'search', 'harbour budget']);
    expect(piped.code).toBe(0);
    expect(piped.stdout.split('\t')[0]).toBe(hit.id);
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(1);
    const json = await kagent(['lib', 'search', 'harbour', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([hit]);
    const tty = await kagent(['lib', 'search', 'harbour'], { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.stdout).toMatch(/^ID\s+KIND\s+TITLE/);
    expect(tty.stdout).toContain(hit.id);
  });

  it('no match: nothing piped, [] with --json, a note on a terminal', async () => {
    expect((await kagent(['lib', 'search', 'zeppelin'])).stdout).toBe('');
    expect((await kagent(['lib', 'search', 'zeppelin', '--json'])).stdout).toBe('[]\n');
    expect((await kagent(['lib', 'search', 'zeppelin'], { tty: true })).stderr).toMatch(
      /Nothing in the library matches "zeppelin"/,
    );
  });

  it('an empty or over-long query is a usage error (exit 2) naming QUERY', async () => {
    const empty = await kagent(['lib', 'search', ' ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/QUERY/);
    const long = await kagent(['lib', 'search', 'x'.repeat(201)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/QUERY .*200/);
  });
});

describe('lib show', () => {
  let file: any;
  let link: any;
  beforeAll(async () => {
    await freshAccount();
    file = await uploadText(
      'report.md',
      '# Report\n\nThe harbour expansion is ahead of schedule. Costs stay within the budget. The board meets in May.\n',
    );
    link = await saveLink('https://example.com/articles/harbour', { note: 'for Monday' });
  });

  it('terminal: title, fields, and the summary and key points rendered as Markdown', async () => {
    const r = await kagent(['lib', 'show', file.id], { tty: true, env: { FORCE_COLOR: '1' } });
    expect(r.code).toBe(0);
    const plain = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toContain(file.title);
    expect(plain).toMatch(/File\s+report\.md · text\/markdown/);
    expect(plain).toMatch(/Summary/);
    expect(plain).toMatch(/Key points/);
    for (const point of file.keyPoints)
      expect(plain.replace(/\s+/g, ' ')).toContain(point.replace(/\s+/g, ' ').slice(0, 30));
    // Rendered, not Markdown source: no "**" or "- " left, bullets drawn.
    expect(plain).not.toMatch(/\*\*|^- /m);
    expect(plain).toMatch(/^\s+\* The harbour expansion/m);
    expect(r.stdout).toMatch(/\x1b\[/);
    expect(hasForeignEscapes(r.stdout)).toBe(false);
    expect(r.stderr).toContain(`lib text ${file.id}`);
  });

  it('piped: field<TAB>value lines, one key-point line per point', async () => {
    const r = await kagent(['lib', 'show', link.id]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain(`id\t${link.id}`);
    expect(lines).toContain('kind\tlink');
    expect(lines).toContain('url\thttps://example.com/articles/harbour');
    expect(lines).toContain('note\tfor Monday');
    expect(lines.filter((line) => line.startsWith('key-point\t'))).toHaveLength(link.keyPoints.length);
    expect(lines.find((line) => line.startsWith('summary\t'))).toBe(
      `summary\t${link.summary.replace(/[\t\n]+/g, ' ')}`,
    );
  });

  it('the help names every key it prints piped (one field table gives both)', async () => {
    const keys = (await kagent(['lib', 'show', link.id])).stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t')[0]!);
    expect(keys).toContain('key-point');
    const helpKeys = pipedKeysOf(libShow.description);
    for (const key of keys) expect(helpKeys).toContain(key);
  });

  it('--json: the item as the API gives it', async () => {
    const r = await kagent(['lib', 'show', link.id, '--json']);
    expect(JSON.parse(r.stdout)).toEqual(link);
  });

  it('an unknown id: exit 4, the code and a hint', async () => {
    const r = await kagent(['lib', 'show', 'li_nope']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/\(ITEM_NOT_FOUND\)/);
    expect(r.stderr).toMatch(/hint: .*lib list/);
    const json = await kagent(['lib', 'show', 'li_nope', '--json']);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stderr).error.code).toBe('ITEM_NOT_FOUND');
  });
});

describe('lib text', () => {
  let file: any;
  let link: any;
  beforeAll(async () => {
    await freshAccount();
    file = await uploadText('long.txt', LONG_TEXT);
    link = await saveLink('https://example.com/articles/harbour');
  });

  it('one chunk piped: exactly the first 8000 characters and one newline, and where the next starts on stderr', async () => {
    const r = await kagent(['lib', 'text', file.id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${LONG_TEXT.slice(0, 8000).replace(/\n+$/, '')}\n`);
    expect(r.stderr).toMatch(new RegExp(`Characters 0–8000 of ${LONG_TEXT.length}`));
    expect(r.stderr).toContain(`lib text ${file.id} --offset 8000`);
  });

  it('--offset and --limit pick a chunk; --json prints the chunk object', async () => {
    const r = await kagent(['lib', 'text', file.id, '--offset', '100', '--limit', '250']);
    expect(r.stdout).toBe(`${LONG_TEXT.slice(100, 350).replace(/\n+$/, '')}\n`);
    const json = await kagent(['lib', 'text', file.id, '--offset', '100', '--limit', '250', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      id: file.id,
      offset: 100,
      limit: 250,
      total: LONG_TEXT.length,
      text: LONG_TEXT.slice(100, 350),
      nextOffset: 350,
    });
  });

  it('--all streams every chunk to stdout in order: the whole text, written as the chunks arrive', async () => {
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    // A stdout that notes how many chunks the service had been asked for at each write.
    const seen: number[] = [];
    let text = '';
    // The count is read from the in-process sandbox at the moment of each write (no request of its own to race).
    const stdout = new Writable({
      write(chunk, _encoding, callback) {
        text += chunk.toString();
        if (chunk.length > 0) seen.push(s.t.sandbox.stats.requests.readLibraryText ?? 0);
        callback();
      },
    });
    const r = await kagent(['lib', 'text', file.id, '--all', '--limit', '1000'], { stdout });
    expect(r.code).toBe(0);
    expect(text).toBe(LONG_TEXT);
    const chunks = Math.ceil(LONG_TEXT.length / 1000);
    const stats = (await s.t.call('GET', '/_sandbox/stats', { key: null })).body;
    expect(stats.requests.readLibraryText).toBe(chunks);
    // The first chunk was written before the second was asked for: streamed, not gathered.
    expect(seen[0]).toBe(1);
    expect(seen).toHaveLength(chunks);
  });

  it('--all from an offset; --all --json is an array of the chunks', async () => {
    const r = await kagent(['lib', 'text', file.id, '--all', '--offset', '25000']);
    expect(r.stdout).toBe(LONG_TEXT.slice(25000));
    const json = await kagent(['lib', 'text', file.id, '--all', '--limit', '10000', '--json']);
    const chunks = JSON.parse(json.stdout);
    expect(chunks.map((c: any) => c.offset)).toEqual([0, 10000, 20000]);
    expect(chunks.map((c: any) => c.text).join('')).toBe(LONG_TEXT);
  });

  it('piped: the text as is, ending with exactly one newline (none missing, none extra), with or without --all', async () => {
    const bare = await uploadText('bare.txt', 'no newline at the end');
    const trailing = await uploadText('trailing.txt', 'three newlines at the end\n\n\n');
    for (const all of [[], ['--all']]) {
      expect((await kagent(['lib', 'text', bare.id, ...all])).stdout).toBe('no newline at the end\n');
      expect((await kagent(['lib', 'text', trailing.id, ...all])).stdout).toBe('three newlines at the end\n');
    }
    // Cut into chunks of 100 characters (the smallest), the text is still whole, with one final newline.
    const long = await kagent(['lib', 'text', bare.id, '--all', '--limit', '100']);
    expect(long.stdout).toBe('no newline at the end\n');
  });

  it('terminal: the text, ending with a newline', async () => {
    const short = await uploadText('short.txt', 'no newline at the end');
    const r = await kagent(['lib', 'text', short.id], { tty: true });
    expect(r.stdout).toBe('no newline at the end\n');
  });

  it('NO_TEXT for an item without stored text: exit 2 and what to do instead', async () => {
    const r = await kagent(['lib', 'text', link.id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\(NO_TEXT\)/);
    expect(r.stderr).toMatch(/hint: only uploaded files keep their text/);
    expect(r.stderr).toContain(`lib show ${link.id}`);
    const all = await kagent(['lib', 'text', link.id, '--all', '--json']);
    expect(all.code).toBe(2);
    expect(JSON.parse(all.stderr).error.code).toBe('NO_TEXT');
  });

  it('an unknown id is exit 4; a bad --limit is exit 2 before any request', async () => {
    expect((await kagent(['lib', 'text', 'li_nope'])).code).toBe(4);
    const bad = await kagent(['lib', 'text', file.id, '--limit', '99']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit/);
  });
});

describe('lib save', () => {
  beforeAll(() => freshAccount());

  it('piped: saves the page and prints the new id', async () => {
    const r = await kagent(['lib', 'save', 'https://example.com/articles/tides', '--note', 'tides']);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(/^li_/);
    const item = (await s.t.call('GET', `/library/${id}`, { key })).body;
    expect(item).toMatchObject({ kind: 'link', url: 'https://example.com/articles/tides', note: 'tides' });
  });

  it('terminal: says so and shows the summary; --space by name', async () => {
    const space = await createSpace('Oceans');
    const r = await kagent(['lib', 'save', 'https://example.com/articles/currents', '--space', 'Oceans'], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/✓ Saved .* \(li_/);
    expect(r.stdout).toMatch(/Summary/);
    expect(r.stdout).toMatch(/Space\s+Oceans/);
    const items = (await s.t.call('GET', '/library', { key, query: { space: space } })).body.items;
    expect(items.map((i: any) => i.url)).toEqual(['https://example.com/articles/currents']);
  });

  it('--json: the service answer {media, item}', async () => {
    const r = await kagent(['lib', 'save', 'https://example.com/articles/waves', '--json']);
    const answer = JSON.parse(r.stdout);
    expect(answer.media).toBe(false);
    expect(answer.item.url).toBe('https://example.com/articles/waves');
  });

  it('a video link: nothing on stdout, exit 2 (MEDIA_LINK) with the media quote command, so $(kagent lib save …) cannot take it for a save', async () => {
    const before = await libraryIds();
    const url = 'https://www.youtube.com/watch?v=abc123';
    for (const tty of [false, true]) {
      const r = await kagent(['lib', 'save', url], { tty });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.replace(/\x1b\[[0-9;]*m/g, '')).toContain(
        'error: this is a video or podcast link: nothing was saved (MEDIA_LINK)',
      );
      expect(unwrap(r.stderr)).toContain(`kagent media quote 'https://www.youtube.com/watch?v=abc123'`);
    }
    const json = await kagent(['lib', 'save', url, '--json']);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: 'MEDIA_LINK',
      hint: expect.stringContaining('kagent media quote'),
    });
    expect(await libraryIds()).toEqual(before);
  });

  it('not an http(s) URL, or a note over 2000 characters: exit 2, nothing sent', async () => {
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    expect((await kagent(['lib', 'save', 'ftp://example.com/x'])).code).toBe(2);
    expect((await kagent(['lib', 'save', 'not a url'])).code).toBe(2);
    const note = await kagent(['lib', 'save', 'https://example.com/a', '--note', 'n'.repeat(2001)]);
    expect(note.code).toBe(2);
    expect(note.stderr).toMatch(/--note/);
    expect((await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests).toEqual({});
  });

  it('no credits left: 402 CREDITS_EXHAUSTED, exit 6', async () => {
    await freshAccount({ credits: 0 });
    const r = await kagent(['lib', 'save', 'https://example.com/articles/tides']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/\(CREDITS_EXHAUSTED\)/);
  });
});

describe('lib edit', () => {
  let item: any;
  beforeAll(async () => {
    await freshAccount();
    await createSpace('Archive');
    item = await saveLink('https://example.com/articles/harbour');
  });

  it('sets the note (piped: the id), moves it by space name, --note "" removes the note', async () => {
    const r = await kagent(['lib', 'edit', item.id, '--note', 'read before Monday']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${item.id}\n`);
    expect((await s.t.call('GET', `/library/${item.id}`, { key })).body.note).toBe('read before Monday');

    const moved = await kagent(['lib', 'edit', item.id, '--space', 'Archive', '--json']);
    expect(moved.code).toBe(0);
    const after = (await s.t.call('GET', `/library/${item.id}`, { key })).body;
    const archive = (await s.t.call('GET', '/spaces', { key })).body.items.find((sp: any) => sp.name === 'Archive');
    expect(after.spaceId).toBe(archive.id);
    expect(JSON.parse(moved.stdout)).toEqual({ id: item.id, spaceId: archive.id });

    const cleared = await kagent(['lib', 'edit', item.id, '--note', ''], { tty: true });
    expect(cleared.code).toBe(0);
    expect(cleared.stderr).toMatch(/Updated .*removed the note/);
    expect((await s.t.call('GET', `/library/${item.id}`, { key })).body.note).toBeNull();
  });

  it('nothing to change is exit 2; an unknown id is exit 4', async () => {
    expect((await kagent(['lib', 'edit', item.id])).code).toBe(2);
    const missing = await kagent(['lib', 'edit', 'li_nope', '--note', 'x']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/ITEM_NOT_FOUND/);
  });
});

describe('lib delete', () => {
  beforeAll(() => freshAccount());

  it('piped without --yes: exit 2 and nothing deleted; with --yes: deleted, the id printed', async () => {
    const item = await saveLink('https://example.com/a');
    const refused = await kagent(['lib', 'delete', item.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    expect(await libraryIds()).toContain(item.id);
    const r = await kagent(['lib', 'delete', item.id, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${item.id}\n`);
    expect(await libraryIds()).not.toContain(item.id);
  });

  it('terminal: asks first; no keeps it (exit 1), yes deletes it', async () => {
    const item = await saveLink('https://example.com/b');
    const no = await kagent(['lib', 'delete', item.id], { tty: true, answers: [false] });
    expect(no.prompts[0]).toMatch(new RegExp(`Delete library item ${item.id}`));
    expect(no.code).toBe(1);
    expect(await libraryIds()).toContain(item.id);
    const yes = await kagent(['lib', 'delete', item.id], { tty: true, answers: [true] });
    expect(yes.code).toBe(0);
    expect(yes.stderr.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(new RegExp(`✓ Deleted ${item.id}`));
    expect(await libraryIds()).not.toContain(item.id);
  });

  it('several ids: deletes those that exist, reports the rest, exit 4; --json lists each', async () => {
    const a = await saveLink('https://example.com/c');
    const b = await saveLink('https://example.com/d');
    const r = await kagent(['lib', 'delete', a.id, 'li_nope', b.id, '--yes', '--json']);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: a.id, deleted: true },
      { id: 'li_nope', deleted: false, error: { code: 'ITEM_NOT_FOUND', message: expect.any(String) } },
      { id: b.id, deleted: true },
    ]);
    const ids = await libraryIds();
    expect(ids).not.toContain(a.id);
    expect(ids).not.toContain(b.id);
  });

  it('one unknown id: exit 4 with the service code', async () => {
    const r = await kagent(['lib', 'delete', 'li_nope', '--yes']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/\(ITEM_NOT_FOUND\)/);
  });
});

describe('without a key', () => {
  it('reading and writing commands are exit 3 with a hint', async () => {
    for (const argv of [
      ['lib', 'list'],
      ['lib', 'show', 'li_x'],
      ['lib', 'save', 'https://example.com/a'],
    ]) {
      const r = await runCli(argv, { env: { KAGENT_BASE_URL: s.t.baseUrl } });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/hint: .*auth login/);
    }
    // Nothing is asked first.
    const del = await runCli(['lib', 'delete', 'li_x'], {
      tty: true,
      answers: [true],
      env: { KAGENT_BASE_URL: s.t.baseUrl },
    });
    expect(del.code).toBe(3);
    expect(del.prompts).toEqual([]);
  });
});
