// A brief whose URLs carry escape sequences (an OSC 8 of their own, BEL, a
// window title) from a service that should not send them: on a terminal with
// and without hyperlinks, and piped, no link opens to the smuggled target and
// nothing but kagent's own colour and links reaches the terminal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardOutput } from '../../src/io/sanitize.js';
import { runCli } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const SMUGGLED = '\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07\x1b]0;pwned\x07';
const url = (path: string) => `https://news.example.com/${path}${SMUGGLED}/rest`;
const at = '2026-01-12T08:00:00.000Z';

const page = {
  watch: {
    slug: 'w',
    title: 'A watch',
    intent: 'Things',
    type: 'topic',
    cadence: 'daily',
    visibility: 'public',
    lang: 'en',
    urls: [],
    alerts: [],
    owner: true,
    following: true,
    spaceId: null,
    followers: 1,
    status: 'active',
    createdAt: at,
  },
  brief: {
    id: 'br_1',
    date: '2026-01-12',
    title: 'A watch — brief of 2026-01-12',
    summary: `See [the report](${url('report')}).`,
    lang: 'en',
    coversFrom: at,
    coversTo: at,
    createdAt: at,
    entries: [
      {
        id: 'en_1',
        position: 1,
        importance: 0.8,
        category: 'Market',
        headline: 'Something happened',
        summary: 'It did.',
        why: 'It matters.',
        primaryUrl: url('a-long-enough-path/2026/01/12/something-happened-somewhere-far-away'),
        mediaId: null,
        feedback: null,
        saved: false,
        evidence: [{ url: url('evidence'), title: 'Evidence', source: 'News', publishedAt: at, excerpt: 'Quote.' }],
      },
    ],
  },
  archive: [],
  method: { summary: 'How.', sources: [{ url: url(''), title: 'news.example.com' }] },
};

let server: TinyServer;
beforeAll(async () => {
  server = await tinyServer(() => ({ status: 200, body: page }));
});
afterAll(() => server.close());

describe('hostile URLs in a brief', () => {
  for (const [mode, tty, links] of [
    ['terminal with hyperlinks', true, '1'],
    ['terminal without hyperlinks', true, '0'],
    ['piped', false, '0'],
  ] as const)
    for (const columns of [40, 80, 200])
      it(`${mode}, ${columns} columns: no link to the smuggled target, no foreign escape`, async () => {
        const r = await runCli(['watch', 'show', 'w'], {
          tty,
          columns,
          env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_tinyserverkey0001', FORCE_HYPERLINK: links },
        });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).not.toContain('\x07');
        expect(r.stdout).not.toContain('evil.example');
        expect(r.stdout).not.toContain('pwned');
        expect(guardOutput(r.stdout)).toBe(r.stdout);
        // every link kagent made points at the service's URL with the sequences taken out
        for (const [, target] of r.stdout.matchAll(/\x1b\]8;;([^\x1b]+)\x1b\\/g))
          expect(target).toMatch(/^https:\/\/news\.example\.com\/[\w/-]*click\/rest$/);
        if (tty && links === '1') expect(r.stdout).toContain('\x1b]8;;https://news.example.com/');
        if (!tty || links === '0') expect(r.stdout).not.toContain('\x1b]8;');
      });
});
