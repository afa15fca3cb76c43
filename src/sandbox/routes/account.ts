// getMe: the account with its plan, trial, credits by pool, limits and usage.
import type { Me } from '../../api/shapes.js';
import type { Jobs, Routes } from '../types.js';
import { monthKey, type World } from '../world.js';
import type { Account } from '../types.js';

export function meView(world: World, account: Account): Me {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    emailVerified: account.emailVerified,
    lang: account.lang,
    plan: account.plan,
    trial: account.trial,
    credits: { total: world.credits(account), pools: account.credits.map((p) => ({ ...p })) },
    limits: { ...account.limits },
    usage: {
      follows: Object.keys(account.follows).length,
      watchesThisMonth: account.watchesByMonth[monthKey(world.now())] ?? 0,
      storageBytes: account.storageUsed,
    },
  };
}

export const routes: Routes = {
  getMe: ({ world, account }) => ({ body: meView(world, account) }),
};

export const jobs: Jobs = {};
