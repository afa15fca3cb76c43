// `lib sync` against a service that misbehaves in front of the sandbox: a
// listing that ignores ?space= (items of another space must never be deleted),
// a listing that gives the same item twice, and an upload never answered under
// --timeout (TIMEOUT, exit 7, never 130).
import { unlinkSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kagent, key, s, useLibSandbox, scratchFolder } from '../helpers/lib-sandbox.js';

let handbook: string;
let other: string;

useLibSandbox(async () => {
  handbook = (await s.t.call('POST', '/spaces', { key, body: { name: 'Handbook' } })).body.id;
  other = (await s.t.call('POST', '/spaces', { key, body: { name: 'Other' } })).body.id;
});

type Rewrite = (req: IncomingMessage, res: ServerResponse) => { path?: string; hold?: boolean; body?: (b: any) => any };

/** A proxy to the sandbox that may change a request's path, hold it unanswered, or rewrite a JSON answer. */
async function proxy(rewrite: Rewrite): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const target = new URL(s.t.baseUrl);
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const how = rewrite(req, res);
    if (how.hold) {
      held.push(res);
      req.resume();
      return;
    }
    const forward = request(
      { host: target.hostname, port: target.port, path: how.path ?? req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          const headers = { ...answer.headers };
          if (how.body && body.length > 0) {
            body = Buffer.from(JSON.stringify(how.body(JSON.parse(body.toString()))));
            headers['content-length'] = String(body.length);
          }
          res.writeHead(answer.statusCode ?? 500, headers);
          res.end(body);
        });
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const folder = (content: Record<string, string>) => scratchFolder('kagent-sync-hostile-', content);

async function ids(space: string): Promise<string[]> {
  const query = { kind: 'file', limit: 200, space };
  return (await s.t.call('GET', '/library', { key, query, validate: false })).body.items.map(
    (i: { id: string }) => i.id,
  );
}

const isListing = (req: IncomingMessage) => req.method === 'GET' && /\/library\?/.test(req.url ?? '');

describe('lib sync --delete against a listing that is not what was asked', () => {
  it('a listing that ignores ?space= (items of another space under the same prefix): refused, exit 1, nothing deleted', async () => {
    const dir = folder({ 'a.md': '# a\n', 'b.md': '# b\n' });
    expect((await kagent(['lib', 'sync', dir, '--space', 'Other'])).code).toBe(0);
    const otherItems = await ids(other);
    expect(otherItems).toHaveLength(2);
    const empty = folder({ 'c.md': '# c\n' });
    const service = await proxy((req) =>
      isListing(req) ? { path: (req.url ?? '').replace(/space=[^&]*&?/, '') } : {},
    );
    try {
      const r = await kagent(['lib', 'sync', empty, '--space', 'Handbook', '--prefix', 'docs', '--delete', '--yes'], {
        env: { KAGENT_BASE_URL: service.baseUrl },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/holds item li_\w+ of space sp_\w+: the service did not list what was asked/);
      expect(await ids(other)).toEqual(otherItems);
      expect(await ids(handbook)).toEqual([]);
    } finally {
      await service.close();
    }
  });

  it('a listing that gives the same item twice: deleted once, counted once', async () => {
    const dir = folder({ 'a.md': '# a\n', 'b.md': '# b\n' });
    expect((await kagent(['lib', 'sync', dir, '--space', 'Handbook'])).code).toBe(0);
    unlinkSync(join(dir, 'b.md'));
    const service = await proxy((req) =>
      isListing(req) ? { body: (page) => ({ ...page, items: [...page.items, ...page.items] }) } : {},
    );
    try {
      const r = await kagent(['lib', 'sync', dir, '--space', 'Handbook', '--delete', '--yes'], {
        env: { KAGENT_BASE_URL: service.baseUrl },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n').filter((line) => line.startsWith('deleted'))).toHaveLength(1);
      expect(r.stderr).toMatch(/^0 uploaded, 0 replaced, 1 deleted, 1 unchanged, 0 failed/m);
    } finally {
      await service.close();
    }
  });
});

describe('lib sync --timeout', () => {
  it('an upload never answered ends by the deadline as TIMEOUT, exit 7 (never 130)', { timeout: 20_000 }, async () => {
    const dir = folder({ 'a.md': '# a\n' });
    const service = await proxy((req) => (req.method === 'POST' ? { hold: true } : {}));
    try {
      const started = Date.now();
      const r = await kagent(['lib', 'sync', dir, '--space', 'Handbook', '--timeout', '2'], {
        env: { KAGENT_BASE_URL: service.baseUrl },
      });
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toMatch(/TIMEOUT/);
      expect(Date.now() - started).toBeLessThan(3_000 + 1_000);
    } finally {
      await service.close();
    }
  });
});
