// An operation's TypeScript types, derived from its entry in spec.ts: what it
// answers, the body and query it takes. Type-only (every import here is `import
// type`), so the client gets the types without loading a schema at run time.
// Adding an operation is an entry in operations.ts and one in spec.ts (the
// compiler refuses one without the other); its types follow from here.
import type { Static, TSchema } from '@sinclair/typebox';
import type { OperationId, operations } from './operations.js';
import type { SpecTable } from './spec.js';

/** The static type of an entry's schema under `field`, or `none` when the entry has no such schema. */
type SchemaType<K extends OperationId, F extends 'response' | 'body' | 'query', None> = SpecTable[K] extends {
  [P in F]: infer T extends TSchema;
}
  ? Static<T>
  : None;

/** What each operation answers with (void for 204s). */
export type Responses = { [K in OperationId]: SchemaType<K, 'response', void> };
/** The JSON body each operation takes (undefined: none, or raw bytes). */
export type Bodies = { [K in OperationId]: SchemaType<K, 'body', undefined> };
/** The query each operation takes (undefined: none). */
export type Queries = { [K in OperationId]: SchemaType<K, 'query', undefined> };

/** Operations answering a page, `{items, nextCursor}`: exactly those operations.ts marks `paged`. */
export type PagedOperation = {
  [K in OperationId]: Responses[K] extends { items: unknown[]; nextCursor: string | null } ? K : never;
}[OperationId];
export type PageItem<K extends PagedOperation> = Responses[K] extends { items: Array<infer T> } ? T : never;

/** The operations that operations.ts marks `paged` (checked against PagedOperation in test/unit/api-operations.test.ts). */
export type MarkedPaged = {
  [K in OperationId]: (typeof operations)[K] extends { paged: true } ? K : never;
}[OperationId];
