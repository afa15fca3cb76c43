// The space model: every account has exactly one default space, which cannot be
// deleted; deleting another space moves its contents to the default one. The
// routes are in ../routes/spaces.ts.
import type { CreateSpaceRequest, Space, UpdateSpaceRequest } from '../../api/shapes.js';
import { HttpFail, type Account } from '../types.js';
import type { World } from '../world.js';

/** The account's spaces in their order. */
export function spacesInOrder(account: Account): Space[] {
  return [...account.spaces].sort((a, b) => a.position - b.position);
}

/** A new space, placed after the others. */
export function createSpace(world: World, account: Account, input: CreateSpaceRequest): Space {
  const space: Space = {
    id: world.id('sp'),
    name: input.name,
    icon: input.icon ?? null,
    description: input.description ?? '',
    isDefault: false,
    position: Math.max(0, ...account.spaces.map((s) => s.position)) + 1,
    createdAt: world.iso(),
  };
  account.spaces.push(space);
  return space;
}

export function updateSpace(account: Account, id: string, input: UpdateSpaceRequest): void {
  const space = ownSpace(account, id);
  if (input.name !== undefined) space.name = input.name;
  if (input.icon !== undefined) space.icon = input.icon;
  if (input.description !== undefined) space.description = input.description;
  if (input.position !== undefined) space.position = input.position;
}

/** Deletes a space that is not the default one; what lived in it moves to the default space. */
export function deleteSpace(world: World, account: Account, id: string): void {
  const space = ownSpace(account, id);
  if (space.isDefault) throw new HttpFail(400, 'SPACE_NOT_DELETABLE', 'The default space cannot be deleted');
  moveContents(world, account, space.id);
  account.spaces = account.spaces.filter((s) => s.id !== space.id);
}

function ownSpace(account: Account, id: string): Space {
  const space = account.spaces.find((s) => s.id === id);
  if (!space) throw new HttpFail(404, 'SPACE_NOT_FOUND', `No space ${id}`);
  return space;
}

/** Moves everything that lives in `from` to the default space. */
function moveContents(world: World, account: Account, from: string): void {
  const to = world.defaultSpace(account).id;
  for (const item of account.library) if (item.spaceId === from) item.spaceId = to;
  for (const doc of account.docs) if (doc.spaceId === from) doc.spaceId = to;
  for (const media of account.media) if (media.spaceId === from) media.spaceId = to;
  for (const task of account.tasks) if (task.spaceId === from) task.spaceId = to;
  for (const conversation of account.conversations) if (conversation.spaceId === from) conversation.spaceId = to;
  for (const follow of Object.values(account.follows)) if (follow.spaceId === from) follow.spaceId = to;
}
