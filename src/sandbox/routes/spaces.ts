// Spaces: every account has exactly one default space, which cannot be deleted;
// deleting another space moves its contents to the default one.
import type { CreateSpaceRequest, Space, UpdateSpaceRequest } from '../../api/shapes.js';
import { HttpFail, type Account, type Jobs, type Routes } from '../types.js';
import type { World } from '../world.js';

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

export const routes: Routes = {
  listSpaces: ({ account }) => ({ body: { items: [...account.spaces].sort((a, b) => a.position - b.position) } }),

  createSpace: ({ world, account, body }) => {
    const input = body as CreateSpaceRequest;
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
    return { status: 201, body: space };
  },

  updateSpace: ({ account, params, body }) => {
    const space = ownSpace(account, params.id ?? '');
    const input = body as UpdateSpaceRequest;
    if (input.name !== undefined) space.name = input.name;
    if (input.icon !== undefined) space.icon = input.icon;
    if (input.description !== undefined) space.description = input.description;
    if (input.position !== undefined) space.position = input.position;
    return { status: 204 };
  },

  deleteSpace: ({ world, account, params }) => {
    const space = ownSpace(account, params.id ?? '');
    if (space.isDefault) throw new HttpFail(400, 'SPACE_NOT_DELETABLE', 'The default space cannot be deleted');
    moveContents(world, account, space.id);
    account.spaces = account.spaces.filter((s) => s.id !== space.id);
    return { status: 204 };
  },
};

export const jobs: Jobs = {};
