// An operation lives in operations.ts (method, path, traits) and spec.ts (schemas);
// its TypeScript types are derived from spec.ts (src/api/operation-types.ts). The
// compile-time half of this file is checked by `npm run typecheck` (tsc over test/):
// an entry in one table and not the other, or a `paged` mark that disagrees with the
// answer's schema, does not compile. The run-time half checks the same for vitest.
import { describe, expect, it } from 'vitest';
import { operationIds, operations, type OperationId } from '../../src/api/operations.js';
import { spec, type SpecTable } from '../../src/api/spec.js';
import type { Bodies, MarkedPaged, PagedOperation, Queries, Responses } from '../../src/api/operation-types.js';
import type { Static } from '@sinclair/typebox';
import type * as S from '../../src/api/shapes.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(value: T): T => value;

// Both tables name the same operations.
holds<Equal<keyof SpecTable, OperationId>>(true);
// `paged: true` in operations.ts is exactly the operations whose answer is a page.
holds<Equal<MarkedPaged, PagedOperation>>(true);
// The derived types are the shapes' own.
holds<Equal<Responses['getMe'], S.Me>>(true);
holds<Equal<Responses['listTasks'], S.Page<S.Task>>>(true);
holds<Equal<Responses['listSpaces'], { items: S.Space[] }>>(true);
holds<Equal<Responses['deleteDoc'], void>>(true);
holds<Equal<Bodies['editDoc'], S.EditDocRequest>>(true);
holds<Equal<Bodies['getMe'], undefined>>(true);
holds<Equal<Queries['getTranscript'], Static<typeof S.Queries.getTranscript>>>(true);

type Schema = { properties?: Record<string, unknown> };

describe('an operation in operations.ts and spec.ts', () => {
  it('is in both tables', () => {
    expect(Object.keys(spec).sort()).toEqual([...operationIds].sort());
  });

  it('answers a body exactly when its success status is not 204', () => {
    const disagree = operationIds.filter(
      (op) => (spec[op].response === undefined) !== (operations[op].success === 204),
    );
    expect(disagree).toEqual([]);
  });

  it('is marked paged exactly when its answer has a nextCursor', () => {
    const marked = (op: OperationId) => 'paged' in operations[op] && operations[op].paged === true;
    const pages = (op: OperationId) => 'nextCursor' in ((spec[op].response as Schema | undefined)?.properties ?? {});
    expect(operationIds.filter((op) => marked(op) !== pages(op))).toEqual([]);
  });

  it('takes a JSON body only when it is not a binary upload', () => {
    const binary = (op: OperationId) => 'binary' in operations[op] && operations[op].binary === true;
    expect(operationIds.filter((op) => binary(op) && spec[op].body !== undefined)).toEqual([]);
  });
});
