// Doc routes: list, create, search, read, update, delete and edit. The doc model
// (revisions, conflicts, exact-match edits, front matter, search) is in
// ../docs/model.ts.
import type { CreateDocRequest, EditDocRequest, UpdateDocRequest } from '../../api/shapes.js';
import {
  createDoc,
  deleteDoc,
  docsIn,
  docView,
  editDoc,
  findDoc,
  searchDocs,
  summaryView,
  updateDoc,
} from '../docs/model.js';
import type { Jobs, Routes } from '../types.js';
import { page } from '../world.js';

export const routes: Routes = {
  listDocs: ({ account, query }) => {
    const result = page(docsIn(account, query.space), query, `docs:${account.id}:${query.space ?? ''}`, 100);
    return { body: { items: result.items.map(summaryView), nextCursor: result.nextCursor } };
  },

  createDoc: ({ world, account, body }) => {
    const doc = createDoc(world, account, body as CreateDocRequest);
    return { status: 201, body: { id: doc.id, revision: doc.revision } };
  },

  searchDocs: ({ account, query }) => ({ body: { items: searchDocs(account.docs, query.q) } }),

  getDoc: ({ world, account, params }) => ({ body: docView(world, account, findDoc(account, params.id)) }),

  updateDoc: ({ world, account, params, body }) => ({
    body: updateDoc(world, account, params.id, body as UpdateDocRequest),
  }),

  deleteDoc: ({ account, params }) => {
    deleteDoc(account, params.id);
    return { status: 204 };
  },

  editDoc: ({ world, account, params, body }) => ({ body: editDoc(world, account, params.id, body as EditDocRequest) }),
};

export const jobs: Jobs = {};
