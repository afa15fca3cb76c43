// kagent space against the sandbox: list / create / edit / delete, spaces by
// id or name, bounds checked before any request, confirmation rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import list from '../../commands/space/list.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes } from '../helpers/run.js';
import { pipedKeysOf } from '../helpers/piped-help.js';

let s: LoggedIn;
beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(async () => {
  await s?.close();
});

async function spaces(): Promise<
  Array<{ id: string; name: string; icon: string | null; description: string; isDefault: boolean }>
> {
  return (await s.t.call('GET', '/spaces')).body.items;
}

describe('space list', () => {
  it('terminal: a table with the default space marked', async () => {
    const r = await s.kagent(['space', 'list'], { tty: true });
    expect(r.code).toBe(0);
    const plain = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/^ID\s+NAME\s+DESCRIPTION\s+DEFAULT\s+CREATED$/m);
    expect(plain).toMatch(/^sp_\w+\s+Personal\s+Your default space\s+✓/m);
  });

  it('terminal with --no-color or NO_COLOR: the same table without colour', async () => {
    for (const [argv, env] of [
      [['--no-color'], {}],
      [[], { NO_COLOR: '1' }],
    ] as const) {
      const r = await s.kagent(['space', 'list', ...argv], { tty: true, env });
      expect(r.stdout).not.toContain('\x1b');
      expect(r.stdout).toMatch(/^ID\s+NAME/);
    }
  });

  it('piped: tab-separated, no header, raw values, ISO times, no colour', async () => {
    const r = await s.kagent(['space', 'list'], { env: { FORCE_COLOR: undefined } });
    const personal = (await spaces()).find((space) => space.isDefault)!;
    expect(r.stdout.split('\n')[0]).toMatch(
      new RegExp(`^${personal.id}\\tPersonal\\t\\tYour default space\\ttrue\\t\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`),
    );
    expect(r.stdout).not.toContain('\x1b');
  });

  it("--json is the API's list as an array; --jq filters it", async () => {
    const json = await s.kagent(['space', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(await spaces());
    const names = await s.kagent(['space', 'list', '--jq', '.[].name']);
    expect(names.stdout.split('\n')).toContain('Personal');
  });
});

describe('space create', () => {
  it('creates a space; piped prints its id, the terminal a sentence, --json the Space', async () => {
    const piped = await s.kagent(['space', 'create', 'Research', '--icon', '🔬', '--description', 'Papers and notes']);
    expect(piped.code).toBe(0);
    const id = piped.stdout.trim();
    expect(id).toMatch(/^sp_/);
    expect(await spaces()).toContainEqual(
      expect.objectContaining({ id, name: 'Research', icon: '🔬', description: 'Papers and notes' }),
    );

    // The ✓ line is a success line: on stderr at a terminal, like every other (docs/output.md); stdout has nothing.
    const tty = await s.kagent(['space', 'create', 'Travel'], { tty: true });
    expect(tty.stderr.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/^✓ Created space Travel \(sp_\w+\)\n$/);
    expect(tty.stdout).toBe('');

    const json = JSON.parse((await s.kagent(['space', 'create', 'Cooking', '--json'])).stdout);
    expect(json).toMatchObject({ id: expect.stringMatching(/^sp_/), name: 'Cooking', isDefault: false });
  });

  it.each([
    [['x'.repeat(61)], 'NAME must be 1 to 60 characters (got 61)'],
    [['Ok', '--icon', '🔬'.repeat(17)], '--icon must be at most 16 characters (got 17)'],
    [['Ok', '--description', 'd'.repeat(301)], '--description must be at most 300 characters (got 301)'],
  ])("checks %j against the contract's bounds before sending anything (exit 2)", async (args, message) => {
    const before = s.t.sandbox.stats.requests['POST /spaces'] ?? 0;
    const r = await s.kagent(['space', 'create', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${message} (INVALID_INPUT)`);
    expect(s.t.sandbox.stats.requests['POST /spaces'] ?? 0).toBe(before);
  });

  it('an invalid input error as JSON carries the issues', async () => {
    const r = await s.kagent(['space', 'create', 'Ok', '--icon', 'x'.repeat(20), '--json']);
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        code: 'INVALID_INPUT',
        message: '--icon must be at most 16 characters (got 20)',
        issues: [{ path: '--icon', message: 'must be at most 16 characters (got 20)' }],
      },
    });
  });
  it('a name a space already has (ignoring case): exit 5 naming it, nothing created; --allow-duplicate creates it', async () => {
    const first = (await s.kagent(['space', 'create', 'Lab notes'])).stdout.trim();
    const before = s.t.sandbox.stats.requests['POST /spaces'] ?? 0;
    const again = await s.kagent(['space', 'create', 'lab NOTES']);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain(`error: a space named "Lab notes" already exists (${first}) (SPACE_NAME_TAKEN)`);
    expect(again.stderr).toContain(`--space ${first}, or pass --allow-duplicate`);
    expect(s.t.sandbox.stats.requests['POST /spaces'] ?? 0).toBe(before);
    const json = await s.kagent(['space', 'create', 'Lab notes', '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'SPACE_NAME_TAKEN' });
    const forced = await s.kagent(['space', 'create', 'Lab notes', '--allow-duplicate']);
    expect(forced.code).toBe(0);
    expect((await spaces()).filter((space) => space.name === 'Lab notes')).toHaveLength(2);
  });
});

describe('naming a space', () => {
  it('by id or by name (case-insensitive when unambiguous)', async () => {
    await s.kagent(['space', 'create', 'Garden']);
    const byName = await s.kagent(['space', 'edit', 'garden', '--description', 'Plants', '--json']);
    expect(byName.code).toBe(0);
    const garden = JSON.parse(byName.stdout);
    expect(garden).toMatchObject({ name: 'Garden', description: 'Plants' });
    const byId = await s.kagent(['space', 'edit', garden.id, '--name', 'Garden & yard', '--json']);
    expect(JSON.parse(byId.stdout)).toMatchObject({ id: garden.id, name: 'Garden & yard' });
    // At a terminal the ✓ line is on stderr, naming the space as it now stands; piped, its id.
    const tty = await s.kagent(['space', 'edit', garden.id, '--name', 'Garden'], { tty: true });
    expect(tty.stderr.replace(/\x1b\[[0-9;]*m/g, '')).toBe(`✓ Updated space Garden (${garden.id})\n`);
    expect(tty.stdout).toBe('');
    const piped = await s.kagent(['space', 'edit', garden.id, '--description', 'Beds']);
    expect(piped.stdout).toBe(`${garden.id}\n`);
  });

  it('an unknown space: exit 4 with a hint', async () => {
    const r = await s.kagent(['space', 'edit', 'Nowhere', '--name', 'x']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: no space with id or name "Nowhere" (SPACE_NOT_FOUND)');
    expect(r.stderr).toContain('kagent space list');
  });

  it('a name shared by two spaces: exit 2, listing their ids', async () => {
    await s.t.call('POST', '/spaces', { body: { name: 'Twin' } });
    await s.t.call('POST', '/spaces', { body: { name: 'twin' } });
    const r = await s.kagent(['space', 'delete', 'TWIN', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"TWIN" names 2 spaces \(sp_\w+, sp_\w+\)/);
  });
});

describe('space edit', () => {
  it('needs something to change', async () => {
    const r = await s.kagent(['space', 'edit', 'Personal']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to change');
  });

  it('--no-icon removes the icon; --position moves it', async () => {
    const id = (await s.kagent(['space', 'create', 'Icons', '--icon', '⭐'])).stdout.trim();
    const r = await s.kagent(['space', 'edit', id, '--no-icon', '--position', '0', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id, icon: null, position: 0 });
  });
});

describe('space delete', () => {
  it('piped, without --yes: no prompt, exit 2 naming --yes, nothing deleted', async () => {
    const id = (await s.kagent(['space', 'create', 'Keep me'])).stdout.trim();
    const r = await s.kagent(['space', 'delete', id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect((await spaces()).map((space) => space.id)).toContain(id);
  });

  it('on a terminal it asks; no keeps the space (exit 1), yes deletes it', async () => {
    const id = (await s.kagent(['space', 'create', 'Ask me'])).stdout.trim();
    const no = await s.kagent(['space', 'delete', id], { tty: true, answers: [false] });
    expect(no.code).toBe(1);
    expect(no.prompts[0]).toMatch(
      /^Delete space Ask me \(sp_\w+\)\? Its watches, library items, documents and conversations move to your default space\.$/,
    );
    expect((await spaces()).map((space) => space.id)).toContain(id);
    const yes = await s.kagent(['space', 'delete', id], { tty: true, answers: [true] });
    expect(yes.code).toBe(0);
    expect(yes.stderr.replace(/\x1b\[[0-9;]*m/g, '')).toContain('✓ Deleted space Ask me');
    expect(yes.stdout).toBe('');
    expect((await spaces()).map((space) => space.id)).not.toContain(id);
  });

  it('--yes deletes without asking; --json prints the deleted space', async () => {
    const id = (await s.kagent(['space', 'create', 'Gone'])).stdout.trim();
    const r = await s.kagent(['space', 'delete', 'Gone', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id, name: 'Gone' });
  });

  it('the default space: explained, exit 2', async () => {
    const r = await s.kagent(['space', 'delete', 'Personal', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: "Personal" is your default space, which cannot be deleted (SPACE_NOT_DELETABLE)',
    );
    expect(r.stderr).toContain('where the contents of deleted spaces');
  });
});

describe('server text is untrusted', () => {
  it('escape sequences in names and descriptions never reach the terminal, nor the pipe', async () => {
    const evil = { name: 'Evil\x1b]0;owned\x07\x1b[2J', description: 'a\x1b[31mred\x9b1;1H\x07 text\nnext' };
    const created = await s.t.call('POST', '/spaces', { body: evil });
    expect(created.status).toBe(201);
    for (const tty of [true, false]) {
      const r = await s.kagent(['space', 'list'], { tty });
      expect(hasForeignEscapes(r.stdout), `tty=${tty}`).toBe(false);
      expect(r.stdout).toContain('Evil');
      expect(r.stdout).not.toContain('owned');
    }
    const json = await s.kagent(['space', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toContainEqual(expect.objectContaining({ name: evil.name }));
    expect(json.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    const jq = await s.kagent(['space', 'list', '--jq', '.[].name', '--json'], { tty: true });
    expect(hasForeignEscapes(jq.stdout)).toBe(false);
    expect(jq.stdout).toContain('Evil');
  });
});

describe('space list', () => {
  it('piped, each row has the columns its help names, in that order', async () => {
    await s.kagent(['space', 'create', 'Columns', '--icon', '🧱', '--description', 'counted']);
    const row = (await s.kagent(['space', 'list'])).stdout.split('\n').find((line) => line.includes('\tColumns\t'));
    const named = pipedKeysOf(list.description);
    expect(named).toEqual(['id', 'name', 'icon', 'description', 'default', 'created']);
    expect(row?.split('\t').slice(1, 4)).toEqual(['Columns', '🧱', 'counted']);
    expect(row?.split('\t')).toHaveLength(named.length);
  });
});

describe('space list --json FIELDS', () => {
  it('takes the piped column names and the API names alike, each object under the names asked, the API values', async () => {
    const spaces = JSON.parse((await s.kagent(['space', 'list', '--json'])).stdout);
    const picked = JSON.parse((await s.kagent(['space', 'list', '--json', 'created,name,isDefault'])).stdout);
    expect(picked).toEqual(
      spaces.map((space: any) => ({ created: space.createdAt, name: space.name, isDefault: space.isDefault })),
    );
    expect(list.description).toContain('`--json FIELDS` takes these names or the API');
    const typo = await s.kagent(['space', 'list', '--json', 'craeted']);
    expect(typo.code).toBe(2);
    const { error } = JSON.parse(typo.stderr);
    expect(error.message).toBe('unknown field for --json: craeted (did you mean "created"?)');
    expect(error.hint).toMatch(/^known fields: id, name, icon, description, default, created, /);
  });
});

describe('space show', () => {
  it('by name or id: fields on a terminal, key<TAB>value piped, the Space with --json; unknown is exit 4', async () => {
    const id = (await s.kagent(['space', 'create', 'Shown', '--icon', '🔭', '--description', 'Stars'])).stdout.trim();
    const tty = await s.kagent(['space', 'show', 'shown'], { tty: true, columns: 80 });
    expect(tty.code).toBe(0);
    const plain = tty.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/^Name\s+🔭 Shown$/m);
    expect(plain).toMatch(new RegExp(`^Id\\s+${id}$`, 'm'));
    expect(plain).toMatch(/^Description\s+Stars$/m);
    expect(plain).toMatch(/^Default\s+no$/m);
    const piped = await s.kagent(['space', 'show', id]);
    expect(piped.stdout).toMatch(
      new RegExp(`^id\\t${id}\\nname\\tShown\\nicon\\t🔭\\ndescription\\tStars\\ndefault\\tfalse\\ncreated\\t\\d{4}-`),
    );
    const json = await s.kagent(['space', 'show', 'Shown', '--json']);
    expect(JSON.parse(json.stdout)).toEqual((await spaces()).find((space) => space.id === id));
    const missing = await s.kagent(['space', 'show', 'Nowhere']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('SPACE_NOT_FOUND');
  });
});
