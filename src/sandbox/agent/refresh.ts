// Messages as read back: their action and change parts with the current state of
// the actions, tasks, media and watches they mention.
import type * as S from '../../api/shapes.js';
import { findAction } from '../actions/state.js';
import { findTask, isActive } from '../tasks/model.js';
import type { Account, MediaRecord } from '../types.js';
import { watches, type WatchRec } from '../watches/model.js';
import { publicView, type World } from '../world.js';

/** Where a change's subject stands now; undefined when it is gone or has no state to report. */
type Outcome = 'pending' | 'done' | 'failed' | undefined;

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
  const status = changeOutcome(world, account, item);
  if (status === 'pending') out.pending = true;
  else if (status) {
    out.pending = false;
    out.outcome = status;
  }
  return out;
}

function changeOutcome(world: World, account: Account, item: S.ArtifactChange): Outcome {
  if (item.kind === 'media') return mediaOutcome(account.media.find((m) => m.id === item.id));
  if (item.kind === 'task') return taskOutcome(findTask(account, item.id));
  if (item.kind === 'watch') return watchOutcome(watches(world)[item.id]);
  return undefined;
}

function mediaOutcome(media: MediaRecord | undefined): Outcome {
  if (!media) return undefined;
  if (media.status === 'ready') return 'done';
  return media.status === 'failed' ? 'failed' : 'pending';
}

function taskOutcome(task: S.Task | undefined): Outcome {
  if (!task) return undefined;
  if (isActive(task)) return 'pending';
  return task.status === 'done' ? 'done' : 'failed';
}

function watchOutcome(watch: WatchRec | undefined): Outcome {
  if (!watch) return undefined;
  if (watch.status === 'setting_up') return 'pending';
  return watch.status === 'active' ? 'done' : 'failed';
}
