// Action routes: deciding and undoing. The action state (create, decide,
// execute, expire, the undo window) is in ../actions/state.ts.
import type * as S from '../../api/shapes.js';
import { decideAction, executeJob, expireJob, findAction, undoAction } from '../actions/state.js';
import type { Jobs, Routes } from '../types.js';
import { notFound, publicView } from '../world.js';

export const routes: Routes = {
  decideAction: ({ world, account, params, body }) => {
    const action = findAction(account, params.id ?? '');
    if (!action) throw notFound('ACTION_NOT_FOUND', `Action ${params.id}`);
    decideAction(world, account, action, body as S.DecideActionRequest);
    return { body: publicView(action) };
  },

  undoAction: ({ world, account, params }) => {
    const action = findAction(account, params.id ?? '');
    if (!action) throw notFound('ACTION_NOT_FOUND', `Action ${params.id}`);
    undoAction(world, account, action);
    return { body: publicView(action) };
  },
};

export const jobs: Jobs = {
  'action.execute': executeJob,
  'action.expire': expireJob,
};
