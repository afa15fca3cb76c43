// Names of response shapes as kagent knows them (the export names in shapes.ts),
// for notes and the doctor: WatchPage, page of Task, list of Space.
import * as S from './shapes.js';

type Schema = Record<string, any>;

let names: Map<unknown, string> | undefined;

/** WatchPage, page of Task, list of Space: the export name in shapes.ts. */
export function shapeName(schema: Schema): string {
  names ??= new Map(
    Object.entries(S)
      .filter(
        ([, v]) =>
          (typeof v === 'object' && v !== null && 'type' in (v as object)) ||
          (typeof v === 'object' && v !== null && 'anyOf' in (v as object)),
      )
      .map(([k, v]) => [v, k]),
  );
  const direct = names.get(schema);
  if (direct) return direct;
  const items = schema.properties?.items?.items;
  const inner = items ? names.get(items) : undefined;
  if (inner) return 'nextCursor' in (schema.properties ?? {}) ? `page of ${inner}` : `list of ${inner}`;
  return schema.description?.replace(/ \(assumed\)$/, '') ?? 'answer';
}
