// kagent config get / set / unset / list, and profiles / use / delete. Settings belong
// to a profile (-p, default: the current one). `get` and `list` show the value
// in effect and where it came from (flag > environment > profile > default).
import { defineGroup } from '../../src/kit/define.js';
import { SETTINGS } from './shared.js';
import get from './get.js';
import set from './set.js';
import unset from './unset.js';
import list from './list.js';
import profiles from './profiles.js';
import use from './use.js';
import remove from './delete.js';

export default defineGroup({
  description: `Settings (per profile): ${SETTINGS.map((s) => `${s.key} — ${s.about}`).join('; ')}.`,
  examples: ['kagent config list', 'kagent config set lang zh', 'kagent config use sandbox'],
  commands: [get, set, unset, list, profiles, use, remove],
});
