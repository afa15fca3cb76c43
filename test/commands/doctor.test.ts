// `kagent doctor` against the sandbox (all well), with a wrong key, a dead host,
// a proxy (a tiny forward proxy here), a clock that is off, and a served OpenAPI
// document edited to differ from the shapes kagent assumes.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { runCli, tempDir } from '../helpers/run.js';
import { writeProfile } from '../../src/config/store.js';

let s: LoggedIn;
let served: any;
const servers: Server[] = [];

function listen(server: Server): Promise<string> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/** A port nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  served = (await s.t.call('GET', '/api/v1/openapi.json')).body;
});
afterAll(async () => {
  for (const server of servers) server.closeAllConnections?.();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await s.close();
});

const checkOf = (report: any, name: string) => report.checks.find((c: any) => c.name === name);

describe('kagent doctor', () => {
  it('against the sandbox: every check passes, exit 0, in all three modes', async () => {
    const tty = await s.kagent(['doctor'], { tty: true, columns: 200 }); // wide: a summary on one line (wrapping: terminal-pty.test.ts)
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain('No problems found.');
    expect(tty.stdout).toMatch(/config .*profile default/);
    expect(tty.stdout).toContain(`base URL: ${s.t.baseUrl} (profile "default")`);
    expect(tty.stdout).toContain('the API key is accepted');
    expect(tty.stdout).toMatch(
      /openapi .*shapes the service describes match what kagent assumes \(.*\/api\/v1\/openapi\.json\)/,
    );

    const piped = await s.kagent(['doctor']);
    expect(piped.code).toBe(0);
    const statuses = piped.stdout
      .split('\n')
      .filter((l) => /^(ok|warn|fail)\t/.test(l))
      .map((l) => l.split('\t').slice(0, 2).join(' '));
    expect(statuses).toEqual([
      'ok config',
      'ok dns',
      'ok proxy',
      'ok reachable',
      'ok key',
      'ok clock',
      'ok rate-limit',
      'ok openapi',
    ]);

    const json = await s.kagent(['doctor', '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(true);
    expect(checkOf(report, 'config').data.baseUrl).toEqual({ value: s.t.baseUrl, source: 'profile' });
    expect(checkOf(report, 'openapi').data.differing).toEqual([]);
    expect(Math.abs(checkOf(report, 'clock').data.skewMs)).toBeLessThan(5_000);
  });

  it('says where each value came from: the environment beats the profile', async () => {
    const r = await s.kagent(['doctor', '--json'], { env: { KAGENT_API_KEY: s.t.apiKey } });
    expect(r.code).toBe(0);
    expect(checkOf(JSON.parse(r.stdout), 'config').data.apiKey.source).toBe('env');
  });

  it('a wrong key: the key check fails with a line saying so, exit 1', async () => {
    const r = await s.kagent(['doctor'], { env: { KAGENT_API_KEY: 'kak_wrongwrongwrongwrong' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^fail\tkey\tthe API key is not accepted \(401\)$/m);
    expect(r.stdout).toMatch(/^-\tkey\tthe key from KAGENT_API_KEY was refused/m);
    expect(r.stderr).toContain('1 problem found (DOCTOR_PROBLEMS)');
    const json = await s.kagent(['doctor', '--json'], { env: { KAGENT_API_KEY: 'kak_wrongwrongwrongwrong' } });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(checkOf(report, 'key')).toMatchObject({ status: 'fail', data: { status: 401 } });
    expect(JSON.parse(json.stderr).error.code).toBe('DOCTOR_PROBLEMS');
  });

  it('no key and no base URL: the config check fails and says what to do', async () => {
    const r = await runCli(['doctor']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^fail\tconfig\t/m);
    expect(r.stdout).toContain('no base URL: set KAGENT_BASE_URL');
    expect(r.stdout).toContain('no API key: run `kagent auth login`');
  });

  it('a base URL and no key: the service is reachable and its published description (which needs no key) is compared', async () => {
    const r = await runCli(['doctor', '--json'], { env: { KAGENT_BASE_URL: s.t.baseUrl } });
    const report = JSON.parse(r.stdout);
    expect(checkOf(report, 'config').status).toBe('fail');
    expect(checkOf(report, 'reachable')).toMatchObject({ status: 'ok' });
    expect(checkOf(report, 'key')).toBeUndefined();
    const openapi = checkOf(report, 'openapi');
    expect(openapi.summary).not.toContain('not reachable');
    expect(openapi).toMatchObject({ status: 'ok', data: { url: `${s.t.baseUrl}/openapi.json`, differing: [] } });
  });

  it('a dead host: not reachable, one line per problem, exit 1', async () => {
    const port = await deadPort();
    const r = await s.kagent(['doctor', '--json'], { env: { KAGENT_BASE_URL: `http://127.0.0.1:${port}/api/v1` } });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(checkOf(report, 'reachable')).toMatchObject({ status: 'fail' });
    expect(checkOf(report, 'reachable').summary).toContain(`http://127.0.0.1:${port} is not reachable`);
    expect(checkOf(report, 'key')).toBeUndefined();
    expect(checkOf(report, 'openapi').status).toBe('warn');
    const tty = await s.kagent(['doctor'], { tty: true, env: { KAGENT_BASE_URL: `http://127.0.0.1:${port}/api/v1` } });
    expect(tty.stdout).toMatch(/✗.*reachable/);
    expect(tty.stdout).toContain('1 problem found.');
  });

  it('a stopped sandbox behind a profile: the summary names the profile once; the hint says where the URL came from and that the sandbox may not run', async () => {
    const port = await deadPort();
    const configDir = tempDir('kagent-doctor-stopped-');
    await writeProfile(
      configDir,
      'sandbox',
      { baseUrl: `http://127.0.0.1:${port}/api/v1`, apiKey: 'kak_stoppedstoppedstopped' },
      { makeCurrent: true },
    );
    const env = { KAGENT_BASE_URL: undefined, KAGENT_API_KEY: undefined, KAGENT_PROFILE: undefined };
    const r = await runCli(['doctor'], { configDir, env });
    expect(r.code).toBe(1);
    const summary = r.stdout.split('\n').find((line) => line.startsWith('ok\tconfig\t')) ?? '';
    expect(summary).toBe(`ok\tconfig\tprofile sandbox, http://127.0.0.1:${port}/api/v1, key kak_…pped`);
    const hint = `nothing is listening at http://127.0.0.1:${port}: a local service such as the sandbox may not be running (start it with \`kagent sandbox\`); or check the base URL (it comes from profile "sandbox")`;
    expect(r.stdout).toContain(`-\treachable\t${hint}`);
    const me = await runCli(['me'], { configDir, env });
    expect(me.code).toBe(7);
    expect(me.stderr).toContain(`hint: ${hint}`);
    expect(me.stderr).not.toContain('--base-url');
    // A URL given on the command line is blamed as such.
    const flag = await runCli(['me', '--base-url', `http://127.0.0.1:${port}/api/v1`], { configDir, env });
    expect(flag.stderr).toContain('check the base URL (it comes from --base-url flag)');
  });

  it('a proxy: named with the variable it came from, checked to accept connections, and the checks go through it', async () => {
    let connections = 0;
    const forwarded: string[] = [];
    const proxy = createServer((req, res) => {
      forwarded.push(`${req.method} ${new URL(req.url ?? '/').pathname}`);
      // A forward proxy for plain http: absolute-form request line, passed on.
      const target = new URL(req.url ?? '/');
      const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    proxy.on('connection', () => connections++);
    const proxyUrl = await listen(proxy);
    const r = await s.kagent(['doctor', '--json'], { env: { HTTP_PROXY: proxyUrl } });
    expect(r.code).toBe(0);
    const check = checkOf(JSON.parse(r.stdout), 'proxy');
    expect(check).toMatchObject({ status: 'ok', data: { proxy: proxyUrl, from: 'HTTP_PROXY', reachable: true } });
    expect(connections).toBeGreaterThan(0);
    expect(forwarded).toContain('GET /api/v1/me');

    // NO_PROXY naming the host: no proxy for it.
    const bypass = await s.kagent(['doctor', '--json'], {
      env: { HTTP_PROXY: proxyUrl, NO_PROXY: 'localhost,127.0.0.1' },
    });
    expect(checkOf(JSON.parse(bypass.stdout), 'proxy').data.proxy).toBeNull();

    // A proxy that is not there: a problem.
    const port = await deadPort();
    const dead = await s.kagent(['doctor'], { env: { http_proxy: `http://127.0.0.1:${port}` } });
    expect(dead.code).toBe(1);
    expect(dead.stdout).toMatch(
      new RegExp(
        `^fail\\tproxy\\tproxy http://127.0.0.1:${port} \\(from http_proxy\\) is not reachable: ECONNREFUSED$`,
        'm',
      ),
    );
  });

  it('rate-limit headers: the budget left, and a warning (not a problem) when it is spent', async () => {
    const me = (await s.t.call('GET', '/me')).body;
    let remaining = '42';
    const server = createServer((req, res) => {
      req.resume();
      if (req.url === '/api/v1/me') {
        res.writeHead(200, {
          'content-type': 'application/json',
          'ratelimit-limit': '60',
          'ratelimit-remaining': remaining,
          'ratelimit-reset': '12',
        });
        res.end(JSON.stringify(me));
      } else {
        res.writeHead(404).end();
      }
    });
    const origin = await listen(server);
    const env = { KAGENT_BASE_URL: `${origin}/api/v1` };
    const r = await s.kagent(['doctor', '--json'], { env });
    const check = checkOf(JSON.parse(r.stdout), 'rate-limit');
    expect(check).toMatchObject({
      status: 'ok',
      summary: '42 requests left of 60, resets in 12 s; kagent keeps under 100000/minute',
      data: { limit: '60', remaining: 42 },
    });
    // No OpenAPI document there: a warning, so still exit 0.
    expect(checkOf(JSON.parse(r.stdout), 'openapi').status).toBe('warn');
    expect(r.code).toBe(0);
    remaining = '0';
    const spent = await s.kagent(['doctor'], { env });
    expect(spent.code).toBe(0);
    expect(spent.stdout).toMatch(/^warn\trate-limit\t0 requests left of 60, resets in 12 s/m);
    expect(spent.stdout).toContain(
      '-\trate-limit\tthe budget is spent: commands will wait or fail with exit 7 until it resets',
    );
  });

  it("a clock 5 minutes ahead of the service's Date: a problem", async () => {
    const ahead = { now: () => Date.now() + 5 * 60_000, sleep: async () => {} };
    const r = await s.kagent(['doctor'], { clock: ahead });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^fail\tclock\tthis clock is 30[01] s ahead of the service's/m);
  });

  it('an OpenAPI document edited to differ: every differing shape is listed (served, --spec URL or file)', async () => {
    const edited = JSON.parse(JSON.stringify(served));
    const schemas = edited.components.schemas;
    // WatchPage without `watch`; Task.createdAt as Unix ms; Space.name optional; Agent.memory nullable.
    delete schemas.WatchPage.properties.watch;
    schemas.WatchPage.required = schemas.WatchPage.required.filter((n: string) => n !== 'watch');
    schemas.Task.properties.createdAt = { type: 'integer' };
    schemas.Space.required = schemas.Space.required.filter((n: string) => n !== 'name');
    schemas.Agent.properties.memory = { type: ['string', 'null'] };
    schemas.WatchPage.properties.slug = { type: 'string' };
    // getTranscript no longer described.
    delete edited.paths['/media/{id}/transcript'];
    const server = createServer((req, res) => {
      if (req.url === '/spec.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(edited));
      } else {
        res.writeHead(404).end();
      }
    });
    const origin = await listen(server);

    const r = await s.kagent(['doctor', '--spec', `${origin}/spec.json`]);
    expect(r.code).toBe(1);
    const details = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('-\topenapi\t'))
      .map((l) => l.split('\t')[2]);
    expect(details).toContain("getWatch: the service's WatchPage differs (missing: watch)");
    expect(details).toContain(
      "cancelTask: the service's Task differs (retyped: createdAt (kagent string, service number))",
    );
    expect(details).toContain(
      "getHome: the service's Home differs (retyped: tasks[].createdAt (kagent string, service number))",
    );
    expect(details).toContain(
      "listTasks: the service's page of Task differs (retyped: items[].createdAt (kagent string, service number))",
    );
    expect(details).toContain(
      "listSpaces: the service's list of Space differs (optional in the service: items[].name)",
    );
    expect(details).toContain(
      "getAgent: the service's Agent differs (retyped: memory (kagent string, service string|null))",
    );
    expect(details).toContain("createSpace: the service's Space differs (optional in the service: name)");
    expect(details).toContain('not described by the service: getTranscript');
    // One line per differing shape, and nothing else.
    expect(details).toHaveLength(8);
    expect(r.stdout).toMatch(/^fail\topenapi\t\d+ of 36 shapes differ from what kagent assumes/m);

    const json = await s.kagent(['doctor', '--json', '--spec', `${origin}/spec.json`]);
    const check = checkOf(JSON.parse(json.stdout), 'openapi');
    const watchPage = check.data.differing.find((d: any) => d.operation === 'getWatch');
    expect(watchPage.differences).toEqual(
      expect.arrayContaining([
        { kind: 'missing', path: 'watch' },
        { kind: 'extra', path: 'slug' },
      ]),
    );
    expect(check.data.undescribed).toEqual(['getTranscript']);

    const file = join(tempDir('kagent-spec-'), 'openapi.json');
    writeFileSync(file, JSON.stringify(edited));
    const fromFile = await s.kagent(['doctor', '--spec', file]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.stdout).toContain("getWatch: the service's WatchPage differs (missing: watch)");

    // Served where a service publishes it ({base URL}/openapi.json), in front of the sandbox: found without --spec.
    const sandboxOrigin = new URL(s.t.baseUrl).origin;
    const front = createServer((req, res) => {
      if (req.url === '/api/v1/openapi.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(edited));
        return;
      }
      const upstream = httpRequest(
        `${sandboxOrigin}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    const frontOrigin = await listen(front);
    const discovered = await s.kagent(['doctor'], { env: { KAGENT_BASE_URL: `${frontOrigin}/api/v1` } });
    expect(discovered.code).toBe(1);
    expect(discovered.stdout).toMatch(/^ok\tkey\t/m);
    expect(discovered.stdout).toContain(`shapes differ from what kagent assumes (${frontOrigin}/api/v1/openapi.json)`);
    expect(discovered.stdout).toContain("-\topenapi\tgetWatch: the service's WatchPage differs (missing: watch)");

    const missing = await s.kagent(['doctor', '--spec', `${origin}/nothing.json`]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/^fail\topenapi\tno OpenAPI document at .*nothing\.json$/m);
    expect(missing.stdout).toMatch(/^-\topenapi\t.*nothing\.json: HTTP 404$/m);
  });
});
