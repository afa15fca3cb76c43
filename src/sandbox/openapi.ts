// The OpenAPI 3.1 document, generated from the single source of shapes: every
// operation of spec.ts with its parameters, body, answers and errors. Named
// shapes become components and are referenced by $ref.
import { operations, type OperationId } from '../api/operations.js';
import * as S from '../api/shapes.js';
import { spec } from '../api/spec.js';

type Json = Record<string, any>;

let cached: { serverUrl: string; doc: Json } | undefined;

export function openapiDocument(serverUrl: string): Json {
  if (cached?.serverUrl === serverUrl) return cached.doc;
  cached = { serverUrl, doc: build(serverUrl) };
  return cached.doc;
}

type ToJson = (schema: unknown, top?: boolean) => unknown;

function build(serverUrl: string): Json {
  const components: Json = {};
  const toJson = schemaConverter(components);
  const paths: Json = {};
  for (const [id, info] of Object.entries(operations) as Array<[OperationId, (typeof operations)[OperationId]]>) {
    paths[info.path] = { ...paths[info.path], [info.method.toLowerCase()]: operationEntry(id, info, toJson) };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Knowledge-agent API (kagent sandbox)',
      version: '1.0.0',
      description:
        'Generated from kagent\'s single source of shapes. Shapes marked "(assumed)" are not shown by the contract.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: { schemas: components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  };
}

/** Turns TypeBox schemas into JSON Schema, the named shapes of shapes.ts becoming `components` referenced by $ref. */
function schemaConverter(components: Json): ToJson {
  // Named resource shapes: exported TypeBox objects of shapes.ts, by identity.
  const names = new Map<object, string>();
  for (const [name, value] of Object.entries(S)) {
    if (
      value &&
      typeof value === 'object' &&
      ('type' in value || 'anyOf' in value) &&
      name !== 'Queries' &&
      name !== 'limits'
    )
      names.set(value, name);
  }
  const toJson = (schema: unknown, top = false): unknown => {
    if (Array.isArray(schema)) return schema.map((s) => toJson(s));
    if (!schema || typeof schema !== 'object') return schema;
    const name = names.get(schema);
    if (name && !top) {
      if (!components[name]) {
        components[name] = {}; // reserve first: shapes may refer to each other
        components[name] = toJson(schema, true);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(schema)) out[key] = toJson(value);
    return out;
  };
  return toJson;
}

/** The OpenAPI operation of one entry of spec.ts: parameters, request body, answers and errors. */
function operationEntry(id: OperationId, info: (typeof operations)[OperationId], toJson: ToJson): Json {
  const op = spec[id];
  const path = info.path;
  const parameters: Json[] = [];
  for (const [, name] of path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  if (op.query) {
    const q = op.query as Json;
    for (const [name, schema] of Object.entries<Json>(q.properties ?? {})) {
      parameters.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema: toJson(schema) });
    }
  }
  if ('idempotent' in info && info.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: S.limits.idempotencyKeyMax },
    });
  }
  if ('binary' in info && info.binary) {
    parameters.push({
      name: 'X-File-Name',
      in: 'header',
      required: true,
      description: 'URL-encoded file name',
      schema: { type: 'string' },
    });
  }

  const responses: Json = {};
  responses[String(info.success)] =
    info.success === 204 || !op.response
      ? { description: 'No content' }
      : {
          description: op.summary,
          ...('idempotent' in info && info.idempotent
            ? {
                headers: {
                  'idempotent-replayed': {
                    description: 'true when answered from the idempotency cache',
                    schema: { type: 'string', enum: ['true'] },
                  },
                },
              }
            : {}),
          content: { 'application/json': { schema: toJson(op.response) } },
        };
  const errors: Array<[number, string]> = [
    [401, 'UNAUTHENTICATED'],
    [429, 'RATE_LIMITED'],
    ...(op.body || op.query ? ([[400, 'INVALID_INPUT']] as Array<[number, string]>) : []),
    ...(op.errors ?? []),
  ];
  const byStatus = new Map<number, string[]>();
  for (const [status, code] of errors) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  for (const [status, codes] of byStatus) {
    const schema = id === 'updateDoc' && status === 409 ? toJson(S.RevisionConflict) : toJson(S.ErrorEnvelope);
    responses[String(status)] = {
      description: codes.join(', '),
      ...(status === 429
        ? { headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } } }
        : {}),
      content: { 'application/json': { schema } },
    };
  }

  const operation: Json = { operationId: id, summary: op.summary, tags: [op.tag], parameters, responses };
  if (op.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toJson(op.body) } } };
  if ('binary' in info && info.binary) {
    operation.requestBody = {
      required: true,
      content: {
        'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
      },
    };
  }
  return operation;
}
