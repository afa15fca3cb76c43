// Space routes: list, create, update and delete. The space model (the default
// space, moving contents on delete) is in ../spaces/model.ts.
import type { CreateSpaceRequest, UpdateSpaceRequest } from '../../api/shapes.js';
import { createSpace, deleteSpace, spacesInOrder, updateSpace } from '../spaces/model.js';
import type { Jobs, Routes } from '../types.js';

export const routes: Routes = {
  listSpaces: ({ account }) => ({ body: { items: spacesInOrder(account) } }),

  createSpace: ({ world, account, body }) => ({
    status: 201,
    body: createSpace(world, account, body as CreateSpaceRequest),
  }),

  updateSpace: ({ account, params, body }) => {
    updateSpace(account, params.id ?? '', body as UpdateSpaceRequest);
    return { status: 204 };
  },

  deleteSpace: ({ world, account, params }) => {
    deleteSpace(world, account, params.id ?? '');
    return { status: 204 };
  },
};

export const jobs: Jobs = {};
