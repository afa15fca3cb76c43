// `kagent entry feedback/save/unsave` against the sandbox: terminal, piped and
// --json modes (--json prints what was done: the service answers 204), the
// effect checked through the API, and the error paths (404, a bad rating).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

let s: LoggedIn;
let slug: string;
let ids: string[];

async function entry(id: string) {
  const page = (await s.t.call('GET', `/watches/${slug}`)).body;
  return page.brief.entries.find((e: any) => e.id === id);
}

async function stats(): Promise<Record<string, number>> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  const created = await s.t.call('POST', '/watches', { body: { intent: 'Battery recycling in Europe' } });
  slug = created.body.slug;
  await s.t.advance(61_000);
  ids = (await s.t.call('GET', `/watches/${slug}`)).body.brief.entries.map((e: any) => e.id);
});
afterAll(() => s.close());

describe('entry feedback', () => {
  it('rates up (piped), down (--json) and clears (terminal)', async () => {
    const [id] = ids as [string];
    const up = await s.kagent(['entry', 'feedback', id, 'up']);
    expect(up.code).toBe(0);
    expect(up.stdout).toBe(`${id}\tup\n`);
    expect((await entry(id)).feedback).toBe('up');

    const down = await s.kagent(['entry', 'feedback', id, 'down', '--json']);
    expect(down.code).toBe(0);
    expect(JSON.parse(down.stdout)).toEqual({ id, feedback: 'down' });
    expect((await entry(id)).feedback).toBe('down');

    const none = await s.kagent(['entry', 'feedback', id, 'none'], { tty: true });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain(`Cleared the rating of ${id}`);
    expect((await entry(id)).feedback).toBeNull();
    const noneJson = await s.kagent(['entry', 'feedback', id, 'none', '--json']);
    expect(JSON.parse(noneJson.stdout)).toEqual({ id, feedback: null });
  });

  it('shows the rating in `watch show`', async () => {
    const id = ids[1]!;
    await s.kagent(['entry', 'feedback', id, 'up']);
    const shown = await s.kagent(['watch', 'show', slug], { tty: true });
    const line = shown.stdout
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .find((l) => l.includes(id));
    expect(line?.trim()).toBe(`${id} · rated up`);
    const other = shown.stdout
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .find((l) => l.includes(ids[3]!));
    expect(other?.trim()).toBe(ids[3]);
  });

  it('refuses a rating other than up, down or none (exit 2) without a request', async () => {
    const before = await stats();
    const r = await s.kagent(['entry', 'feedback', ids[0]!, 'meh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/up, down, none/);
    expect((await stats()).setEntryFeedback ?? 0).toBe(before.setEntryFeedback ?? 0);
  });

  it('an unknown entry is exit 4 with a hint', async () => {
    const r = await s.kagent(['entry', 'feedback', 'en_nope', 'up']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/\(ENTRY_NOT_FOUND\)/);
    expect(r.stderr).toMatch(/hint: no entry "en_nope" you can see: entry ids are shown by `kagent watch show SLUG`/);
    const json = await s.kagent(['entry', 'feedback', 'en_nope', 'up', '--json']);
    expect(JSON.parse(json.stderr).error.code).toBe('ENTRY_NOT_FOUND');
  });
});

describe('entry save / unsave', () => {
  it('saves to the library and removes again (piped, --json, terminal)', async () => {
    const id = ids[2]!;
    const saved = await s.kagent(['entry', 'save', id]);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toBe(`${id}\ttrue\n`);
    expect((await entry(id)).saved).toBe(true);
    const library = (await s.t.call('GET', '/library', { query: { kind: 'entry' } })).body.items;
    expect(library.map((i: any) => i.entryId)).toContain(id);

    const unsaved = await s.kagent(['entry', 'unsave', id, '--json']);
    expect(unsaved.code).toBe(0);
    expect(JSON.parse(unsaved.stdout)).toEqual({ id, saved: false });
    expect((await entry(id)).saved).toBe(false);

    const tty = await s.kagent(['entry', 'save', id], { tty: true });
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toContain(`Saved ${id} to your library`);
    const ttyUnsave = await s.kagent(['entry', 'unsave', id], { tty: true });
    expect(ttyUnsave.stderr).toContain(`Removed ${id} from your library`);
    const json = await s.kagent(['entry', 'save', id, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ id, saved: true });
  });

  it('an unknown entry is exit 4', async () => {
    expect((await s.kagent(['entry', 'save', 'en_nope'])).code).toBe(4);
    expect((await s.kagent(['entry', 'unsave', 'en_nope'])).code).toBe(4);
  });

  it('every subcommand has examples in --help', async () => {
    for (const sub of ['feedback', 'save', 'unsave']) {
      const r = await s.kagent(['entry', sub, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Examples:\n\s+\$ kagent entry/);
    }
  });
});
