// Messages as read back: their action and change parts with the current state of
// the actions, tasks, media and watches they mention.
import type * as S from '../../api/shapes.js';
import { findAction } from '../actions/state.js';
import { findTask, isActive } from '../tasks/model.js';
import type { Account } from '../types.js';
import { watches } from '../watches/model.js';
import { publicView, type World } from '../world.js';

/** Message parts as stored, with the current state of the actions, tasks, media and watches they mention. */
export function refreshParts(world: World, account: Account, parts: S.ChatPart[]): S.ChatPart[] {
  return parts.map((part) => {
    if (part.type === 'action') {
      const current = findAction(account, part.action.id);
      return current ? { ...part, action: publicView(current) } : part;
    }
    if (part.type === 'changes') {
      return { ...part, items: part.items.map((item) => refreshChange(world, account, item)) };
    }
    return part;
  });
}

function refreshChange(world: World, account: Account, item: S.ArtifactChange): S.ArtifactChange {
  const out: S.ArtifactChange = { ...item, actionIds: [...item.actionIds] };
  if (item.actionIds.some((id) => findAction(account, id)?.status === 'undone')) out.undone = true;
  let status: 'pending' | 'done' | 'failed' | undefined;
  if (item.kind === 'media') {
    const media = account.media.find((m) => m.id === item.id);
    status = !media ? undefined : media.status === 'ready' ? 'done' : media.status === 'failed' ? 'failed' : 'pending';
  } else if (item.kind === 'task') {
    const task = findTask(account, item.id);
    status = !task ? undefined : isActive(task) ? 'pending' : task.status === 'done' ? 'done' : 'failed';
  } else if (item.kind === 'watch') {
    const w = watches(world)[item.id];
    status = !w ? undefined : w.status === 'setting_up' ? 'pending' : w.status === 'active' ? 'done' : 'failed';
  }
  if (status === 'pending') out.pending = true;
  else if (status) {
    out.pending = false;
    out.outcome = status;
  }
  return out;
}
