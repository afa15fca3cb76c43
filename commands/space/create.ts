import { checkInput, defineCommand } from '../../src/kit/define.js';
import { idempotencyKeyOption } from '../../src/kit/options.js';
import { label } from './shared.js';
import { note } from '../../src/io/output.js';
import { printDone } from '../../src/io/outcome.js';
import { checkCreated } from '../../src/kit/created.js';
import type { Context } from '../../src/context.js';
import { CliError, ExitCode } from '../../src/errors.js';
import { CreateSpaceRequest } from '../../src/api/shapes.js';
import { checkIdempotencyKey, replayNote } from '../../src/kit/idempotency-key.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a space',
  description:
    "The name, icon and description are checked against the service's bounds before anything is sent. " +
    'A name that a space already has (ignoring case) is refused (exit 5, naming the existing space) unless ' +
    '--allow-duplicate is given: two spaces with one name cannot be told apart by --space NAME. ' +
    'With --idempotency-key the key guards against a second space instead, and the name is not checked.',
  arguments: [{ name: 'name', description: "the new space's name" }],
  options: [
    { flags: '--icon <emoji>', description: 'an icon, usually one emoji' },
    { flags: '--description <text>', description: 'what the space is for' },
    { flags: '--allow-duplicate', description: 'create it even if a space already has this name' },
    idempotencyKeyOption('a rerun within 24 h returns the first space instead of creating another', 'space'),
  ],
  examples: [
    'kagent space create Research',
    'kagent space create "Reading list" --description "Long reads for the weekend"',
    'id=$(kagent space create Travel)',
    '# in CI: a rerun of the job creates no second space',
    'kagent space create "Release $VERSION" --idempotency-key "$GITHUB_RUN_ID-space"',
  ],
  async run(ctx, opts, args) {
    const body = {
      name: args.name,
      ...(opts.icon !== undefined ? { icon: opts.icon } : {}),
      ...(opts.description !== undefined ? { description: opts.description } : {}),
    };
    checkInput(CreateSpaceRequest, body, { name: 'NAME', icon: '--icon', description: '--description' });
    await checkIdempotencyKey(opts.idempotencyKey);
    const api = await ctx.api();
    if (!opts.allowDuplicate && opts.idempotencyKey === undefined) await refuseTakenName(ctx, args.name);
    const result = await api.callFull('createSpace', { body, idempotencyKey: opts.idempotencyKey, signal: ctx.signal });
    const space = result.body;
    checkCreated(ctx, 'space', { id: space.id }, 'space list');
    const replay = replayNote(result, opts.idempotencyKey, `created space ${space.id}`, 'nothing new was created');
    if (replay) await note(ctx, replay);
    await printDone(ctx, space, {
      piped: (created) => created.id,
      // A replay creates nothing: no ✓ line, the note above says so and stdout names the space.
      said: replay ? undefined : `Created space ${label(space)}`,
      shown: replay ? (created) => label(created) : undefined,
    });
  },
});

/** Two spaces with one name make `--space NAME` ambiguous: refuse, naming the space that has it (exit 5). */
async function refuseTakenName(ctx: Context, name: string): Promise<void> {
  const { items } = await (await ctx.api()).call('listSpaces', { signal: ctx.signal });
  const taken = items.find((space) => space.name.toLowerCase() === name.toLowerCase());
  if (!taken) return;
  throw new CliError(`a space named "${taken.name}" already exists (${taken.id})`, {
    exitCode: ExitCode.CONFLICT,
    code: 'SPACE_NAME_TAKEN',
    hint: `use it with --space ${taken.id}, or pass --allow-duplicate to create another`,
  });
}
