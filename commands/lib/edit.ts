import { UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { withNotFound } from '../../src/io/not-found.js';
import { spaceOption, fieldsGiven } from '../../src/kit/options.js';
import { spaceIdFor } from '../../src/kit/space.js';

import { printDone } from '../../src/io/outcome.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'edit',
  summary: "Change an item's note or move it to another space",
  description: '`--note ""` removes the note. Piped: prints the id; --json prints {id, note?, spaceId?}.',
  arguments: [{ name: 'id', description: 'the item', complete: 'lib' }],
  options: [
    { flags: '--note <text>', description: 'the new note (at most 2000 characters; "" removes it)' },
    spaceOption('move it to this space (id or name)'),
  ],
  examples: [
    'kagent lib edit li_8f2k3xq9mz --note "read before Monday"',
    'kagent lib edit li_8f2k3xq9mz --space Archive',
    'kagent lib edit li_8f2k3xq9mz --note ""',
  ],
  async run(ctx, opts, args) {
    if (opts.note === undefined && opts.space === undefined)
      throw new UsageError('nothing to change: give --note and/or --space');
    const body = fieldsGiven({ note: opts.note === '' ? null : opts.note, space: opts.space });
    checkInput(S.UpdateLibraryItemRequest, body, { note: '--note', space: '--space' });
    if (opts.space !== undefined) body.space = await spaceIdFor(ctx, opts.space);
    const api = await ctx.api();
    await withNotFound(ctx, 'item', args.id, () =>
      api.call('updateLibraryItem', { params: { id: args.id }, body, signal: ctx.signal }),
    );
    const changes = [
      opts.note === undefined ? '' : noteChange(body.note),
      opts.space !== undefined ? `moved it to ${opts.space}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const result = {
      id: args.id,
      ...(opts.note !== undefined ? { note: body.note } : {}),
      ...(opts.space !== undefined ? { spaceId: body.space } : {}),
    };
    await printDone(ctx, result, { said: `Updated ${args.id}: ${changes}`, piped: (r) => r.id });
  },
});

/** What the edit did to the note: null removes it. */
function noteChange(note: unknown): string {
  return note === null ? 'removed the note' : 'set the note';
}
