// Tolerant reading, end to end: kagent against a tiny service whose answers
// differ from the shapes kagent assumes. --json prints them byte for byte as
// sent (re-serialised); views show what they can and the rest generically, with
// one note on stderr naming the shape and what differed; --debug gives the
// details; an answer that is not JSON, or a list that is not a list, is a clear
// error with its own code. Never UNEXPECTED.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type RunCliOptions } from '../helpers/run.js';

type Answer = { status?: number; body?: unknown; raw?: string; type?: string };
const answers = new Map<string, Answer>();
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const answer = answers.get(`${req.method} ${req.url?.split('?')[0]}`);
    req.resume();
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: `nothing at ${req.url}` } }));
      return;
    }
    const text = answer.raw ?? JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'application/json' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function kagent(argv: string[], options: RunCliOptions = {}) {
  return runCli(argv, {
    ...options,
    env: { KAGENT_BASE_URL: baseUrl, KAGENT_API_KEY: 'kak_testtesttesttest', ...options.env },
  });
}

const serve = (route: string, answer: Answer) => answers.set(route, answer);

// A WatchPage as an independently written service might send it: no `watch`, with `slug` and `title`.
const watchPage = {
  slug: 'ai-chips',
  title: 'AI chips',
  brief: null,
  archive: [],
  method: { summary: 'We read the news.', sources: [] },
};
// The same with a brief of another shape too.
const oddBrief = { id: 'br_1', date: 1768467600000, headline: { value: 'Chips are hot' }, entries: 'none today' };

describe('an answer that differs from its assumed shape', () => {
  beforeAll(() => {
    serve('GET /api/v1/watches/ai-chips', { body: watchPage });
    serve('GET /api/v1/watches/odd-brief', { body: { ...watchPage, brief: oddBrief } });
  });

  it('--json prints it byte for byte as the service sent it (re-serialised), exit 0, stderr untouched', async () => {
    const r = await kagent(['watch', 'show', 'ai-chips', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(watchPage)}\n`);
    expect(r.stderr).toBe('');
  });

  it('a view: one note on stderr naming the shape and what differed', async () => {
    const r = await kagent(['watch', 'show', 'ai-chips']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "note: the service's WatchPage differs from what kagent knows (missing: watch; extra: slug, title): shown as it came\n",
    );
  });

  it('differences deeper in the answer are named by their path', async () => {
    const r = await kagent(['watch', 'show', 'odd-brief']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^note: the service's WatchPage differs from what kagent knows \(missing: watch, brief\.title, .*, … \d+ more; retyped: brief\.date \(string → integer\), brief\.entries \(array → string\); extra: brief\.headline, slug, title\): shown as it came\n$/,
    );
    for (const tty of [true, false]) {
      const shown = await kagent(['watch', 'show', 'odd-brief'], { tty });
      expect(shown.code).toBe(0);
      expect(shown.stderr).not.toContain('UNEXPECTED');
      expect(shown.stdout).toContain('AI chips');
    }
  });

  it('--jq works on it as it came', async () => {
    const r = await kagent(['watch', 'show', 'ai-chips', '--jq', '.title']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('AI chips\n');
  });

  it('--quiet keeps stderr clean; --debug lists every difference (with --json too)', async () => {
    const quiet = await kagent(['watch', 'show', 'ai-chips', '--quiet']);
    expect(quiet.stderr).toBe('');
    const debug = await kagent(['watch', 'show', 'odd-brief', '--json', '--debug']);
    expect(debug.stderr).toContain('debug: getWatch answer differs from WatchPage:');
    expect(debug.stderr).toContain('debug:   missing watch');
    expect(debug.stderr).toContain('debug:   retyped brief.date (kagent expects string, got integer)');
    expect(debug.stderr).toContain('debug:   extra slug');
  });

  it('on a terminal and piped: rendered (by the view, or generically) with the note, never a crash', async () => {
    for (const tty of [true, false]) {
      const r = await kagent(['watch', 'show', 'ai-chips'], { tty });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain("note: the service's WatchPage differs from what kagent knows");
      expect(r.stderr).not.toContain('UNEXPECTED');
      expect(r.stdout).toContain('AI chips');
      expect(r.stdout).toContain('We read the news.');
    }
  });

  it('the generic rendering: key/value lines and nested lists on a terminal, path<TAB>value piped', async () => {
    serve('GET /api/v1/tasks/tk_odd', {
      body: { task: { id: 'tk_odd', state: 'running' }, steps: [{ name: 'Find sources', done: true }, 'plain'] },
    });
    const tty = await kagent(['task', 'show', 'tk_odd'], { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain(
      'task:\n  id: tk_odd\n  state: running\nsteps:\n  -\n    name: Find sources\n    done: true\n  - plain',
    );
    const piped = await kagent(['task', 'show', 'tk_odd']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain(
      'task.id\ttk_odd\ntask.state\trunning\nsteps.0.name\tFind sources\nsteps.0.done\ttrue\nsteps.1\tplain\n',
    );
    expect(piped.stderr).toContain(
      "note: the service's TaskDetail differs from what kagent knows (missing: id, kind, title, status",
    );
  });
});

describe('the commands that crashed against an independent mock', () => {
  const cases: Array<[string[], string, unknown]> = [
    [
      ['watch', 'knowledge', 'ai-chips'],
      'GET /api/v1/watches/ai-chips/knowledge',
      { report: 42, timeline: { items: [] } },
    ],
    [
      ['task', 'show', 'tk_1'],
      'GET /api/v1/tasks/tk_1',
      { id: 'tk_1', status: 3, milestones: 'none', createdAt: 1768467600000 },
    ],
    [
      ['lib', 'show', 'li_1'],
      'GET /api/v1/library/li_1',
      { id: 'li_1', kind: 'link', url: { href: 'https://example.com' }, title: null, createdAt: 1768467600000 },
    ],
    [
      ['media', 'transcript', 'md_1'],
      'GET /api/v1/media/md_1/transcript',
      { markdown: { text: '# Hi' }, segments: 'later' },
    ],
    [
      ['watch', 'create', 'Battery recycling', '--no-wait', '--visibility', 'public'],
      'POST /api/v1/watches',
      { watch: { slug: 'battery' }, task: 'tk_9' },
    ],
  ];
  for (const [argv, route, body] of cases) {
    it(`kagent ${argv.join(' ')}: terminal, piped and --json`, async () => {
      serve(route, { body, status: route.startsWith('POST') ? 202 : 200 });
      for (const mode of ['tty', 'piped', 'json'] as const) {
        const r = await kagent(mode === 'json' ? [...argv, '--json'] : argv, { tty: mode === 'tty' });
        expect(r.stderr).not.toContain('UNEXPECTED');
        if (mode !== 'json') expect(r.stderr).toContain('note: the service');
        expect(r.code).toBe(0);
        if (mode === 'json') expect(r.stdout).toBe(`${JSON.stringify(body)}\n`);
        else expect(r.stdout.length).toBeGreaterThan(0);
      }
    });
  }
});

describe('a write whose answer lacks what the next step needs', () => {
  it('watch create (following the set-up) shows the answer as it came instead of failing on it', async () => {
    const created = { watch: { slug: 'battery', title: 'Battery recycling' }, task: { id: 'tk_9' } };
    serve('POST /api/v1/watches', { body: created, status: 202 });
    const json = await kagent(['watch', 'create', 'Battery recycling', '--visibility', 'public', '--json']);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(`${JSON.stringify(created)}\n`);
    expect(json.stderr).not.toContain('UNEXPECTED');
    for (const tty of [true, false]) {
      const r = await kagent(['watch', 'create', 'Battery recycling', '--visibility', 'public'], {
        tty,
        env: { NO_COLOR: '1' },
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        "note: the service's WatchCreated differs from what kagent knows (missing: slug, taskId, watch.intent, ",
      );
      expect(r.stderr).toContain(
        "note: kagent could not read the service's WatchCreated (createWatch); here it is as it came",
      );
      expect(r.stdout).toContain(tty ? 'watch:\n  slug: battery' : 'watch.slug\tbattery');
    }
  });
});

describe('answers that cannot be read at all', () => {
  it('a list that is not a list: NOT_A_LIST (exit 1) on a terminal or piped; --json prints it as it came', async () => {
    const odd = { items: { tk_1: { id: 'tk_1' } }, nextCursor: null };
    serve('GET /api/v1/tasks', { body: odd });
    for (const tty of [true, false]) {
      const r = await kagent(['task', 'list'], { tty, env: { NO_COLOR: '1' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        "error: listTasks: the service's answer is not a list (no `items` array in it) (NOT_A_LIST)",
      );
      expect(r.stderr).toContain('hint: run the same command with --json to see the answer as it came');
    }
    const json = await kagent(['task', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(`${JSON.stringify(odd)}\n`);
  });

  it('a list answer that is an array, not {items}: the same', async () => {
    serve('GET /api/v1/spaces', { body: [{ id: 'sp_1', name: 'Work' }] });
    const r = await kagent(['space', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('(NOT_A_LIST)');
    const json = await kagent(['space', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('[{"id":"sp_1","name":"Work"}]\n');
  });

  it('an answer that is not JSON: INVALID_RESPONSE (exit 7), in every mode', async () => {
    // A POST without an idempotency key is not asked again, so this fails at once.
    serve('POST /api/v1/media/quote', { raw: '<html>Maintenance</html>', type: 'text/html' });
    for (const argv of [
      ['media', 'quote', 'https://example.com/talk.mp3'],
      ['media', 'quote', 'https://example.com/talk.mp3', '--json'],
    ]) {
      const r = await kagent(argv);
      expect(r.code).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('INVALID_RESPONSE');
      expect(r.stderr).not.toContain('UNEXPECTED');
    }
  });
});
