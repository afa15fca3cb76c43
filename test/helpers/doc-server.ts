// A small stateful stand-in for the service's documents, on 127.0.0.1, that
// answers with whatever the test gives it — ids and titles the sandbox never
// makes (`../../x`, control characters, 80 CJK characters) — and can hold a
// save: apply it, then answer late (or never), calling the test back
// meanwhile. listDocs, getDoc, editDoc (replace / append / prepend /
// insert_after / rewrite) and updateDoc, with REVISION_CONFLICT on a stale
// revision; the answers fit the shapes kagent knows.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

export interface ServedDoc {
  id: string;
  title: string;
  body: string;
  revision?: number;
}

export interface DocServerOptions {
  docs: ServedDoc[];
  /** Called once a save (editDoc or updateDoc) was applied, before its answer; the answer waits for the promise. */
  onSaved?: (doc: Required<ServedDoc>) => Promise<void> | void;
  /** Answer a save after this many ms (Infinity: never). */
  saveDelayMs?: number;
}

export interface DocServer {
  baseUrl: string;
  docs: Map<string, Required<ServedDoc>>;
  requests: Array<{ method: string; path: string; body: string }>;
  close(): Promise<void>;
}

const UPDATED_AT = '2026-01-15T09:00:00.000Z';

function docOf(d: Required<ServedDoc>) {
  return {
    id: d.id,
    title: d.title,
    body: d.body,
    revision: d.revision,
    origin: 'user',
    folderId: null,
    updatedAt: UPDATED_AT,
    space: null,
    publication: null,
  };
}

function summaryOf(d: Required<ServedDoc>) {
  return { id: d.id, title: d.title, spaceId: 'sp_1', folderId: null, revision: d.revision, updatedAt: UPDATED_AT };
}

function applyEdit(body: string, edit: Record<string, string>): string | undefined {
  switch (edit.op) {
    case 'replace': {
      const at = body.indexOf(edit.find ?? '');
      if (at < 0 || body.indexOf(edit.find ?? '', at + 1) >= 0) return undefined;
      return body.slice(0, at) + edit.replace + body.slice(at + (edit.find ?? '').length);
    }
    case 'insert_after': {
      const at = body.indexOf(edit.after ?? '');
      if (at < 0) return undefined;
      const end = at + (edit.after ?? '').length;
      return body.slice(0, end) + edit.content + body.slice(end);
    }
    case 'append':
      return body + edit.content;
    case 'prepend':
      return edit.content + body;
    case 'rewrite':
      return edit.content;
    default:
      return undefined;
  }
}

export async function startDocServer(options: DocServerOptions): Promise<DocServer> {
  const docs = new Map<string, Required<ServedDoc>>(options.docs.map((d) => [d.id, { revision: 1, ...d }]));
  const requests: DocServer['requests'] = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  async function saved(res: ServerResponse, doc: Required<ServedDoc>): Promise<void> {
    await options.onSaved?.(doc);
    const answer = () => send(res, 200, { id: doc.id, revision: doc.revision, updatedAt: UPDATED_AT });
    const delay = options.saveDelayMs ?? 0;
    if (delay === Infinity) return;
    if (delay > 0) {
      const timer = setTimeout(answer, delay);
      timers.add(timer);
    } else answer();
  }

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/api\/v1/, '');
    requests.push({ method: req.method ?? '', path, body: raw });
    if (req.method === 'GET' && path === '/docs')
      return send(res, 200, { items: [...docs.values()].map(summaryOf), nextCursor: null });
    const match = /^\/docs\/([^/]+)(\/edits)?$/.exec(path);
    const doc = match ? docs.get(decodeURIComponent(match[1] as string)) : undefined;
    if (!match || !doc)
      return send(res, 404, {
        error: { code: 'NOT_FOUND', message: `no route or document for ${req.method} ${path}` },
      });
    if (req.method === 'GET' && !match[2]) return send(res, 200, docOf(doc));
    const body = raw === '' ? {} : (JSON.parse(raw) as Record<string, any>);
    const given = match[2] ? body.revision : body.baseRevision;
    if (typeof given === 'number' && given !== doc.revision) {
      return send(res, 409, {
        error: { code: 'REVISION_CONFLICT', message: `revision ${given} is not the latest (${doc.revision})` },
        latest: { revision: doc.revision, title: doc.title, body: doc.body, updatedAt: UPDATED_AT },
      });
    }
    if (req.method === 'POST' && match[2]) {
      let text = doc.body;
      for (const edit of body.edits as Array<Record<string, string>>) {
        const next = applyEdit(text, edit);
        if (next === undefined)
          return send(res, 400, { error: { code: 'EDIT_NOT_APPLICABLE', message: 'an edit did not match' } });
        text = next;
      }
      doc.body = text;
      doc.revision++;
      return saved(res, doc);
    }
    if (req.method === 'PATCH' && !match[2]) {
      if (typeof body.body === 'string') doc.body = body.body;
      if (typeof body.title === 'string') doc.title = body.title;
      doc.revision++;
      return saved(res, doc);
    }
    return send(res, 404, { error: { code: 'NOT_FOUND', message: `no route for ${req.method} ${path}` } });
  }

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      handle(req, res, raw).catch((error: Error) =>
        send(res, 500, { error: { code: 'INTERNAL', message: error.message } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    docs,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A test file's documents service and scratch folders, all gone after each test. */
export interface DocServerFixture {
  /** The running test's service, once it started one. */
  readonly server: DocServer | undefined;
  /** Starts the test's service with these documents. */
  serve(docs: ServedDoc[]): Promise<DocServer>;
  /** A fresh temporary folder. */
  scratch(): string;
}

/** Registers the afterEach that closes the service and removes the scratch folders. */
export function docServerFixture(): DocServerFixture {
  let server: DocServer | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get server() {
      return server;
    },
    async serve(docs) {
      server = await startDocServer({ docs });
      return server;
    },
    scratch() {
      const dir = mkdtempSync(join(tmpdir(), 'kagent-hostile-'));
      dirs.push(dir);
      return dir;
    },
  };
}
