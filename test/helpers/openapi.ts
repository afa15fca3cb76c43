// Checks answers against the OpenAPI document the sandbox serves: the answer's
// status must be one the operation documents, and its JSON body must validate
// against that status's schema ($refs resolved inside the served document).
// The test helper runs every response through this, so every test is also a
// conformance test.
import ajv2020, { type Ajv2020 as Ajv, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

// CommonJS packages seen from ESM: the class sits on `default`.
const Ajv2020 = ((ajv2020 as any).default ?? ajv2020) as new (options: object) => Ajv;
const addFormats = ((ajvFormats as any).default ?? ajvFormats) as (ajv: Ajv) => void;

type Json = Record<string, any>;

interface Operation {
  operationId: string;
  method: string;
  pattern: RegExp;
  literalSegments: number;
  responses: Json;
}

export class OpenApiChecker {
  private readonly ajv: Ajv;
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
      for (const [method, op] of Object.entries<Json>(item)) {
        const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+');
        this.operations.push({
          operationId: op.operationId,
          method: method.toUpperCase(),
          pattern: new RegExp(`^${source}/?$`),
          literalSegments: path.split('/').filter((s) => s && !s.startsWith('{')).length,
          responses: op.responses ?? {},
        });
      }
    }
    // Literal paths win over templated ones (`/docs/search` before `/docs/{id}`).
    this.operations.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** The operation a request to `path` (relative to the server URL) reaches. */
  operationFor(method: string, path: string): Operation | undefined {
    return this.operations.find((op) => op.method === method && op.pattern.test(path));
  }

  /** Problems with one answer, empty when it conforms. */
  check(
    method: string,
    path: string,
    status: number,
    contentType: string | undefined,
    body: unknown,
    text: string,
  ): string[] {
    const op = this.operationFor(method, path);
    if (!op) return [];
    const response = op.responses[String(status)];
    if (!response)
      return [
        `${op.operationId} answered ${status}, which the document does not list (${Object.keys(op.responses).join(', ')})`,
      ];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return text.length === 0 ? [] : [`${op.operationId} ${status} documents no body but one was sent`];
    if (!contentType?.includes('json')) return [`${op.operationId} ${status}: content-type ${contentType} is not JSON`];
    const key = `${op.operationId} ${status}`;
    const validate = this.validators.get(key) ?? this.ajv.compile({ ...schema, components: this.document.components });
    this.validators.set(key, validate);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e: ErrorObject) => `${key}: ${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }
}
