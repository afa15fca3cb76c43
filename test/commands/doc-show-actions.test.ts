// `kagent doc show` under GitHub Actions: a document's lines that look like
// workflow commands (`::add-mask::`, `::set-output`, `::stop-commands::`) are
// shown in the log, never acted on by the runner; outside Actions nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandsRun, withoutFrames } from '../helpers/actions-runner.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

let s: LoggedIn;
let key: string;
let id: string;

const TEXT = [
  '# Release',
  '',
  '::add-mask::hunter2',
  '  ::set-output name=version::6.6.6',
  '::stop-commands::guess',
  '::error file=a.md::forged',
  'a line with :: inside is text',
  '::guess::',
  '::warning::last',
  '',
].join('\n');

beforeAll(async () => {
  s = await loggedInSandbox();
  ({ apiKey: key } = await s.t.newAccount({ credits: 1000 }));
  const res = await s.t.call('POST', '/docs', { key, body: { title: '::error::in the title', markdown: TEXT } });
  expect(res.status).toBe(201);
  id = res.body.id;
});
afterAll(() => s.close());

describe('doc show under GitHub Actions', () => {
  it('piped: no line of the document is a command the runner runs; framed, the text is all there', async () => {
    expect(commandsRun(TEXT)).not.toEqual([]); // the document alone would run them
    const r = await s.kagent(['doc', 'show', id], { env: { KAGENT_API_KEY: key, GITHUB_ACTIONS: 'true' } });
    expect(r.code).toBe(0);
    expect(commandsRun(r.stdout)).toEqual([]);
    expect(commandsRun(r.stderr)).toEqual([]);
    expect(withoutFrames(r.stdout)).toBe(TEXT);
  });

  it('on a terminal (title and rendered body) neither', async () => {
    const r = await s.kagent(['doc', 'show', id], {
      tty: true,
      columns: 80,
      env: { KAGENT_API_KEY: key, GITHUB_ACTIONS: 'true' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('add-mask');
    expect(commandsRun(r.stdout)).toEqual([]);
  });

  it('outside Actions (or GITHUB_ACTIONS=false) the text is printed as it is', async () => {
    for (const env of [{}, { GITHUB_ACTIONS: 'false' }]) {
      const r = await s.kagent(['doc', 'show', id], { env: { KAGENT_API_KEY: key, ...env } });
      expect(r.stdout).toBe(TEXT);
    }
  });
});
