// The published API description: OpenAPI 3.1.0 at {base_url}/openapi.json,
// needing no key, naming all 49 operationIds of the contract with their
// methods, paths, success codes and documented errors; every schema compiles
// and every $ref resolves. (Each answer of every other test is validated
// against this same document by the test helper.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiChecker } from '../helpers/openapi.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** From the contract's endpoint tables: operationId → method, path, success status, error statuses. */
const contract: Record<string, [string, string, number, number[]]> = {
  getMe: ['GET', '/me', 200, []],
  listSpaces: ['GET', '/spaces', 200, []],
  createSpace: ['POST', '/spaces', 201, [409, 422]],
  updateSpace: ['PATCH', '/spaces/{id}', 204, [404]],
  deleteSpace: ['DELETE', '/spaces/{id}', 204, [400, 404]],
  listFollowedWatches: ['GET', '/watches', 200, []],
  createWatch: ['POST', '/watches', 202, [403, 409, 422]],
  searchWatches: ['GET', '/watches/search', 200, []],
  getWatch: ['GET', '/watches/{slug}', 200, [404]],
  getWatchKnowledge: ['GET', '/watches/{slug}/knowledge', 200, [404]],
  listWatchIssues: ['GET', '/watches/{slug}/issues', 200, [404]],
  followWatch: ['PUT', '/watches/{slug}/follow', 200, [403, 404]],
  unfollowWatch: ['DELETE', '/watches/{slug}/follow', 204, [404]],
  updateWatchSettings: ['PATCH', '/watches/{slug}/settings', 204, [404]],
  setEntryFeedback: ['PUT', '/entries/{id}/feedback', 204, [404]],
  setEntrySaved: ['PUT', '/entries/{id}/saved', 204, [404]],
  listLibrary: ['GET', '/library', 200, []],
  saveLink: ['POST', '/library', 201, [409, 422]],
  getLibraryItem: ['GET', '/library/{id}', 200, [404]],
  updateLibraryItem: ['PATCH', '/library/{id}', 204, [404]],
  deleteLibraryItem: ['DELETE', '/library/{id}', 204, [404]],
  readLibraryText: ['GET', '/library/{id}/text', 200, [400, 404]],
  uploadFile: ['POST', '/library/files', 201, [400, 413, 415]],
  listDocs: ['GET', '/docs', 200, []],
  createDoc: ['POST', '/docs', 201, [409, 422]],
  searchDocs: ['GET', '/docs/search', 200, []],
  getDoc: ['GET', '/docs/{id}', 200, [404]],
  updateDoc: ['PATCH', '/docs/{id}', 200, [404, 409]],
  deleteDoc: ['DELETE', '/docs/{id}', 204, [404]],
  editDoc: ['POST', '/docs/{id}/edits', 200, [400, 404, 409]],
  quoteMedia: ['POST', '/media/quote', 200, [400, 503]],
  startMedia: ['POST', '/media', 202, [402, 409, 422, 503]],
  listMedia: ['GET', '/media', 200, []],
  getMedia: ['GET', '/media/{id}', 200, [404]],
  getTranscript: ['GET', '/media/{id}/transcript', 200, [400, 404]],
  getAgent: ['GET', '/agent', 200, []],
  updateAgent: ['PATCH', '/agent', 204, []],
  getHome: ['GET', '/home', 200, []],
  listInbox: ['GET', '/inbox', 200, []],
  markInboxItem: ['POST', '/inbox/{id}', 204, [404]],
  listTasks: ['GET', '/tasks', 200, []],
  getTask: ['GET', '/tasks/{id}', 200, [404]],
  cancelTask: ['POST', '/tasks/{id}/cancel', 200, [404, 409]],
  listConversations: ['GET', '/conversations', 200, []],
  getConversationMessages: ['GET', '/conversations/{id}/messages', 200, [404]],
  sendMessage: ['POST', '/conversations/messages', 202, [402, 409, 422]],
  deleteConversation: ['DELETE', '/conversations/{id}', 204, [404]],
  decideAction: ['POST', '/actions/{id}/decide', 200, [404, 409, 422]],
  undoAction: ['POST', '/actions/{id}/undo', 200, [404, 409]],
};
const createStyle = [
  'createSpace',
  'createWatch',
  'saveLink',
  'uploadFile',
  'createDoc',
  'startMedia',
  'sendMessage',
  'decideAction',
];

let t: TestSandbox;
let doc: Record<string, any>;
const operations = new Map<string, { method: string; path: string; op: Record<string, any> }>();

beforeAll(async () => {
  t = await startTestSandbox();
  const res = await t.call('GET', '/openapi.json', { key: null });
  expect(res.status).toBe(200);
  doc = res.body;
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<Record<string, any>>(item))
      operations.set(op.operationId, { method: method.toUpperCase(), path, op });
  }
});
afterAll(() => t.close());

describe('the served OpenAPI document', () => {
  it('is OpenAPI 3.1.0, version 1.0.0, served as JSON without a key at {base_url}/openapi.json', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers[0].url).toBe(t.baseUrl);
    const withKey = await t.call('GET', '/openapi.json');
    expect(withKey.status).toBe(200);
    expect(withKey.headers['content-type']).toContain('application/json');
    expect((await t.call('GET', '/openapi.json', { key: 'kak_invalid' })).status).toBe(200);
  });

  it('names exactly the 49 operationIds of the contract, once each', () => {
    const ids = [
      ...Object.values<Record<string, any>>(doc.paths).flatMap((item) =>
        Object.values<Record<string, any>>(item).map((op) => op.operationId),
      ),
    ];
    expect(ids).toHaveLength(49);
    expect(new Set(ids)).toEqual(new Set(Object.keys(contract)));
  });

  it.each(Object.entries(contract))(
    '%s has the contract’s method, path, success status and errors',
    (id, [method, path, success, errors]) => {
      const found = operations.get(id);
      expect(found).toBeDefined();
      expect(`${found!.method} ${found!.path}`).toBe(`${method} ${path}`);
      const statuses = Object.keys(found!.op.responses).map(Number);
      expect(statuses).toContain(success);
      for (const status of [...errors, 401, 429]) expect(statuses, `${id} documents ${status}`).toContain(status);
      expect(found!.op.responses[String(success)]).toBeDefined();
      const headers = (found!.op.parameters ?? []).filter((p: any) => p.in === 'header').map((p: any) => p.name);
      if (createStyle.includes(id)) expect(headers).toContain('Idempotency-Key');
      else expect(headers).not.toContain('Idempotency-Key');
    },
  );

  it('documents 400 for every operation that takes input', () => {
    for (const [id, { op }] of operations) {
      const takesInput = op.requestBody || (op.parameters ?? []).some((p: any) => p.in === 'query');
      if (takesInput) expect(op.responses['400'], id).toBeDefined();
    }
  });

  it('declares bearer authentication', () => {
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  it('resolves every $ref inside the document', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.push(value);
        else walk(value);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      expect(ref.startsWith('#/')).toBe(true);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<any>((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it('has a schema for every JSON answer, and every schema compiles', () => {
    const checker = new OpenApiChecker(doc);
    for (const [id, { method, path, op }] of operations) {
      for (const [status, response] of Object.entries<Record<string, any>>(op.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (Number(status) === 204) {
          expect(schema, `${id} 204`).toBeUndefined();
          continue;
        }
        expect(schema, `${id} ${status}`).toBeDefined();
        // A wrong body must be reported (proves the schema compiled and is not empty).
        const concrete = path.replace(/\{\w+\}/g, 'x');
        expect(
          checker.check(method, concrete, Number(status), 'application/json', 42, '42').length,
          `${id} ${status}`,
        ).toBeGreaterThan(0);
      }
    }
  });

  it('documents the body of the REVISION_CONFLICT answer with `latest`', () => {
    const conflict = operations.get('updateDoc')!.op.responses['409'].content['application/json'].schema;
    const resolved = conflict.$ref ? doc.components.schemas[conflict.$ref.split('/').pop()] : conflict;
    expect(Object.keys(resolved.properties)).toEqual(expect.arrayContaining(['error', 'latest']));
  });

  it('describes uploadFile as a raw octet-stream body with X-File-Name', () => {
    const { op } = operations.get('uploadFile')!;
    expect(Object.keys(op.requestBody.content)).toEqual(['application/octet-stream']);
    expect(op.parameters.find((p: any) => p.name === 'X-File-Name')).toMatchObject({ in: 'header', required: true });
  });

  it('states the bounds of the contract on query parameters', () => {
    const param = (id: string, name: string) =>
      operations.get(id)!.op.parameters.find((p: any) => p.name === name).schema;
    expect(param('listLibrary', 'limit')).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    expect(param('listDocs', 'limit')).toMatchObject({ minimum: 1, maximum: 500, default: 100 });
    expect(param('readLibraryText', 'limit')).toMatchObject({ minimum: 100, maximum: 50000, default: 8000 });
    expect(param('listLibrary', 'q')).toMatchObject({ maxLength: 200 });
    expect(param('searchDocs', 'q')).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(param('uploadFile', 'note')).toMatchObject({ maxLength: 2000 });
    expect(param('listLibrary', 'space')).toMatchObject({ minLength: 1, maxLength: 80 });
  });
});
