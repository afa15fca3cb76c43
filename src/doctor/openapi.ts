// The service's OpenAPI description compared with the shapes kagent assumes:
// for each operation kagent calls, the success answer the service describes is
// set beside kagent's shape; what kagent expects and the service leaves out,
// describes with another type, or makes optional is a difference. Fields only
// the service has are listed too (harmless: kagent ignores them).
import { operations, type OperationId } from '../api/operations.js';
import { throwIfAborted } from '../errors.js';
import { spec } from '../api/spec.js';
import { shapeName } from '../api/shape-names.js';

type Schema = Record<string, any>;

export interface SpecDifference {
  kind: 'missing' | 'retyped' | 'optional' | 'extra';
  path: string;
  /** For retyped: kagent's type and the service's. */
  kagent?: string;
  service?: string;
}

export interface OperationComparison {
  op: OperationId;
  shape: string;
  /** The service does not describe this operation (or its answer). */
  undescribed?: boolean;
  differences: SpecDifference[];
}

/**
 * Every operation kagent reads an answer of, compared. Bounded (MAX_SCHEMA_STEPS, else SpecTooComplexError), and it
 * gives the event loop a turn between operations, so Ctrl-C and SIGTERM are heard (InterruptedError, or the deadline's error, once `signal` aborts).
 */
export async function compareWithSpec(document: Schema, signal?: AbortSignal): Promise<OperationComparison[]> {
  const found = indexOperations(document);
  const resolver = new Resolver(document);
  const out: OperationComparison[] = [];
  for (const [op, entry] of Object.entries(spec) as Array<[OperationId, (typeof spec)[OperationId]]>) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    throwIfAborted(signal);
    const ours = entry.response as Schema | undefined;
    if (!ours) continue;
    const info = operations[op];
    const theirs = found.byId.get(op) ?? found.byRoute.get(routeKey(info.method, info.path));
    const answer = theirs ? successSchema(theirs, info.success) : undefined;
    if (!answer) {
      out.push({ op, shape: shapeName(ours), undescribed: true, differences: [] });
      continue;
    }
    const differences: SpecDifference[] = [];
    diff(ours, answer, '', { out: differences, resolver }, 0);
    out.push({ op, shape: shapeName(ours), differences });
  }
  return out;
}

function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '')}`;
}

function indexOperations(document: Schema): { byId: Map<string, Schema>; byRoute: Map<string, Schema> } {
  const byId = new Map<string, Schema>();
  const byRoute = new Map<string, Schema>();
  // Paths may or may not carry the base path (/api/v1): match on what follows it.
  const servers: string[] = Array.isArray(document.servers)
    ? document.servers.map((s: Schema) => String(s?.url ?? ''))
    : [];
  const basePaths = servers.map((url) => {
    try {
      return new URL(url, 'http://x').pathname.replace(/\/+$/, '');
    } catch {
      return '';
    }
  });
  for (const [path, item] of Object.entries<Schema>(document.paths ?? {})) {
    if (typeof item !== 'object' || item === null) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method] as Schema | undefined;
      if (typeof operation !== 'object' || operation === null) continue;
      if (typeof operation.operationId === 'string') byId.set(operation.operationId, operation);
      const stripped = ['/api/v1', ...basePaths].reduce(
        (p, base) => (base && p.startsWith(`${base}/`) ? p.slice(base.length) : p),
        path,
      );
      byRoute.set(routeKey(method, stripped), operation);
    }
  }
  return { byId, byRoute };
}

function successSchema(operation: Schema, status: number): Schema | undefined {
  const responses: Schema = operation.responses ?? {};
  const response =
    responses[String(status)] ?? Object.entries(responses).find(([code]) => /^2\d\d$|^2XX$/i.test(code))?.[1];
  const content: Schema = response?.content ?? {};
  const json = content['application/json'] ?? Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
  return json?.schema;
}

/**
 * Schema steps (a $ref followed, an allOf merged, a schema typed) allowed for one document. With every result
 * memoised a real document takes a few thousand; a hostile one (`anyOf` of eight `$ref`s to itself, recursion
 * through allOf) would otherwise take exponential time. Past it, the comparison stops with SpecTooComplexError.
 */
export const MAX_SCHEMA_STEPS = 200_000;
/** How long a chain of $refs (or nested allOf/anyOf) is followed before it counts as describing nothing. */
const MAX_SCHEMA_DEPTH = 64;

export class SpecTooComplexError extends Error {
  constructor() {
    super(`the document takes more than ${MAX_SCHEMA_STEPS} schema steps to compare`);
    this.name = 'SpecTooComplexError';
  }
}

const NO_TYPES: ReadonlySet<string> = new Set();

/**
 * The service's schemas, resolved on demand: $ref chains followed, allOf merged, the types a schema allows.
 * Each schema object is worked out once (memoised); a cycle (a schema that is, through refs, only itself)
 * resolves to nothing; every step counts against MAX_SCHEMA_STEPS.
 */
class Resolver {
  private readonly resolved = new Map<object, Schema | undefined>();
  private readonly typed = new Map<object, ReadonlySet<string>>();
  private steps = 0;
  constructor(private readonly document: Schema) {}

  private step(): void {
    if (++this.steps > MAX_SCHEMA_STEPS) throw new SpecTooComplexError();
  }

  resolve(schema: Schema | undefined, depth = 0): Schema | undefined {
    if (!schema || typeof schema !== 'object' || depth > MAX_SCHEMA_DEPTH) return undefined;
    if (this.resolved.has(schema)) return this.resolved.get(schema);
    // Being resolved: a way back here is a cycle, and finds nothing.
    this.resolved.set(schema, undefined);
    this.step();
    const out = this.resolveOnce(schema, depth);
    this.resolved.set(schema, out);
    return out;
  }

  private resolveOnce(schema: Schema, depth: number): Schema | undefined {
    if (typeof schema.$ref === 'string') {
      const target = schema.$ref.startsWith('#/')
        ? schema.$ref
            .slice(2)
            .split('/')
            .reduce<any>((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], this.document)
        : undefined;
      return this.resolve(target, depth + 1);
    }
    if (Array.isArray(schema.allOf)) {
      const parts = schema.allOf.map((part: Schema) => this.resolve(part, depth + 1) ?? {});
      const merged: Schema = { type: 'object', properties: {}, required: [] };
      for (const part of [schema, ...parts]) {
        if (typeof part.properties === 'object' && part.properties !== null)
          Object.assign(merged.properties, part.properties);
        if (Array.isArray(part.required)) merged.required.push(...part.required);
      }
      return merged;
    }
    return schema;
  }

  /** The JSON types a schema of the service allows (integer counts as number), memoised; a cycle allows none. */
  types(schema: Schema, depth = 0): ReadonlySet<string> {
    const s = this.resolve(schema);
    if (!s || depth > MAX_SCHEMA_DEPTH) return NO_TYPES;
    const known = this.typed.get(s);
    if (known) return known;
    this.typed.set(s, NO_TYPES);
    this.step();
    const branches = s.anyOf ?? s.oneOf;
    let types: Set<string>;
    if (Array.isArray(branches)) {
      types = new Set();
      for (const branch of branches) for (const t of this.types(branch, depth + 1)) types.add(t);
    } else types = ownTypes(s);
    this.typed.set(s, types);
    return types;
  }
}

/** The JSON types a schema of kagent's own allows (integer counts as number); kagent's shapes have no refs or cycles. */
function typesOf(schema: Schema, depth = 0): Set<string> {
  const types = new Set<string>();
  if (!schema || depth > 10) return types;
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    for (const b of branches) for (const t of typesOf(b, depth + 1)) types.add(t);
    return types;
  }
  return ownTypes(schema);
}

function ownTypes(s: Schema): Set<string> {
  const types = new Set<string>();
  for (const t of declaredTypes(s)) types.add(t === 'integer' ? 'number' : String(t));
  if (s.nullable === true) types.add('null');
  return types;
}

/** The types a schema names (`type`, one or a list), else what its properties or its `const` imply. */
function declaredTypes(s: Schema): unknown[] {
  if (Array.isArray(s.type)) return s.type;
  if (s.type !== undefined) return [s.type];
  if (s.properties) return ['object'];
  if (s.const !== undefined) return [typeof s.const];
  return [];
}

/** kagent's non-null branch of a Nullable(X), or the schema itself. */
function core(schema: Schema): Schema {
  if (Array.isArray(schema.anyOf)) {
    const nonNull = schema.anyOf.filter((b: Schema) => b.type !== 'null');
    if (nonNull.length === 1) return nonNull[0];
  }
  return schema;
}

/** Where one comparison's differences go, and how the service's schemas resolve. */
interface Comparison {
  out: SpecDifference[];
  resolver: Resolver;
}

/** kagent's shape `ours` beside the service's schema at `path`: a retyped value, else its items or its properties in turn. */
function diff(ours: Schema, theirsRaw: Schema, path: string, cmp: Comparison, depth: number): void {
  const theirs = cmp.resolver.resolve(theirsRaw);
  if (!theirs || depth > 8) return;
  const retyped = retypedAt(ours, theirs, path, cmp.resolver);
  if (retyped) {
    cmp.out.push(retyped);
    return;
  }
  const mine = core(ours);
  const theirCore = cmp.resolver.resolve(core(theirs)) ?? theirs;
  if (mine.type === 'array' && mine.items) {
    if (theirCore.items) diff(mine.items, theirCore.items, `${path}[]`, cmp, depth + 1);
    return;
  }
  // An object described without properties (free-form) is not a difference.
  if (mine.type === 'object' && mine.properties && theirCore.properties)
    diffProperties(mine, theirCore, path, cmp, depth);
}

/** The service allows a type that kagent's shape does not. A service that describes no type says nothing to compare. */
function retypedAt(ours: Schema, theirs: Schema, path: string, resolver: Resolver): SpecDifference | undefined {
  const ourTypes = typesOf(ours);
  const theirTypes = resolver.types(theirs);
  if (ourTypes.size === 0 || theirTypes.size === 0) return undefined;
  if ([...theirTypes].every((t) => ourTypes.has(t))) return undefined;
  return {
    kind: 'retyped',
    path: path || '(answer)',
    kagent: [...ourTypes].join('|'),
    service: [...theirTypes].join('|'),
  };
}

/** Each property of kagent's object beside the service's: missing, optional, compared in turn; then the service's extras. */
function diffProperties(mine: Schema, theirs: Schema, path: string, cmp: Comparison, depth: number): void {
  const theirProps: Schema = theirs.properties;
  const theirRequired = new Set<string>(theirs.required ?? []);
  const ourRequired = new Set<string>(mine.required ?? []);
  const at = (name: string) => (path ? `${path}.${name}` : name);
  for (const [name, sub] of Object.entries<Schema>(mine.properties)) {
    if (!(name in theirProps)) {
      if (ourRequired.has(name)) cmp.out.push({ kind: 'missing', path: at(name) });
      continue;
    }
    if (ourRequired.has(name) && !theirRequired.has(name)) cmp.out.push({ kind: 'optional', path: at(name) });
    diff(sub, theirProps[name], at(name), cmp, depth + 1);
  }
  for (const name of Object.keys(theirProps))
    if (!(name in mine.properties)) cmp.out.push({ kind: 'extra', path: at(name) });
}

/** How each kind of difference is named, in the order they are told. */
const DIFFERENCE_LABELS: Record<SpecDifference['kind'], string> = {
  missing: 'missing',
  retyped: 'retyped',
  optional: 'optional in the service',
  extra: 'only in the service',
};

/** "missing: watch; retyped: brief.date (kagent string, service number); optional: slug" */
export function describeSpecDifferences(differences: SpecDifference[], max = 6): string {
  const parts: string[] = [];
  for (const [kind, label] of Object.entries(DIFFERENCE_LABELS) as Array<[SpecDifference['kind'], string]>) {
    const these = differences.filter((d) => d.kind === kind);
    if (these.length === 0) continue;
    const shown = these
      .slice(0, max)
      .map((d) => (kind === 'retyped' ? `${d.path} (kagent ${d.kagent}, service ${d.service})` : d.path));
    parts.push(`${label}: ${shown.join(', ')}${these.length > max ? `, … ${these.length - max} more` : ''}`);
  }
  return parts.join('; ');
}
