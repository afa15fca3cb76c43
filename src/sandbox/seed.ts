// The content a new sandbox starts with, so that a first `kagent` tour has
// something to show: a few public watches (owned by a system account that has
// no key) with a week of briefs, to search, follow and read; their next briefs
// come by cadence like any other watch. The default account gets a welcome
// suggestion in its inbox. Deterministic for a seed, and cheap (a few hundred
// generated entries), so start-up stays fast.
import { foundSources, hostOf } from './watches/content.js';
import { addInbox } from './inbox/model.js';
import { scheduleNextBrief, writeBrief } from './watches/brief.js';
import { addWatchRecord, DAY_MS, type NewWatch } from './watches/model.js';
import type { Account } from './types.js';
import type { World } from './world.js';

/** Owner id of the seeded watches: no account has it, so nobody can change their settings. */
export const SYSTEM_OWNER = 'acc_system';

type Seed = Pick<NewWatch, 'intent' | 'lang' | 'type' | 'cadence' | 'urls'> & { slug: string; followers: number };

export const SEEDED_WATCHES: Seed[] = [
  {
    slug: 'ai-chips',
    intent: 'Follow AI chip makers, export controls and data-center supply',
    lang: 'en',
    type: 'topic',
    cadence: 'daily',
    urls: [],
    followers: 1284,
  },
  {
    slug: 'open-source-llms',
    intent: 'Track open-source large language model releases and benchmarks',
    lang: 'en',
    type: 'topic',
    cadence: 'daily',
    urls: [],
    followers: 932,
  },
  {
    slug: 'climate-tech-funding',
    intent: 'Climate tech funding rounds, carbon removal and energy storage policy',
    lang: 'en',
    type: 'topic',
    cadence: 'weekly',
    urls: [],
    followers: 415,
  },
  {
    slug: 'china-ev',
    intent: '跟踪中国新能源汽车行业的价格、销量和政策变化',
    lang: 'zh',
    type: 'topic',
    cadence: 'daily',
    urls: [],
    followers: 2051,
  },
  {
    slug: 'rust-releases',
    intent: 'Rust language releases and ecosystem news',
    lang: 'en',
    type: 'sources',
    cadence: 'daily',
    urls: ['https://blog.rust-lang.org/', 'https://this-week-in-rust.org/'],
    followers: 377,
  },
];

/** Adds the public watches (once per world) and the default account's welcome. */
export function seedWorld(world: World, account: Account): void {
  const now = world.now();
  if (!world.state.watches[SEEDED_WATCHES[0]!.slug]) {
    for (const seed of SEEDED_WATCHES) {
      const w = addWatchRecord(world, {
        ...seed,
        visibility: 'public',
        alerts: [],
        ownerId: SYSTEM_OWNER,
        createdAt: now - 30 * DAY_MS,
        baseFollowers: seed.followers,
      });
      w.status = 'active';
      w._sources =
        seed.type === 'topic'
          ? foundSources(world.rng(`sources:${w.slug}`), 5)
          : seed.urls.map((url) => ({ url, title: hostOf(url) }));
      // Briefs up to a few hours ago: a week of daily ones, or two weekly ones.
      const step = seed.cadence === 'weekly' ? 7 * DAY_MS : DAY_MS;
      const count = seed.cadence === 'weekly' ? 2 : 7;
      const lastAt = now - (seed.cadence === 'weekly' ? 2 * DAY_MS : 3 * 3_600_000);
      for (let j = count - 1; j >= 0; j--) {
        const at = lastAt - j * step;
        writeBrief(world, w, { from: j === count - 1 ? at - 7 * DAY_MS : at - step, to: at, at, notify: false });
      }
      scheduleNextBrief(world, w);
    }
  }
  const zh = account.lang === 'zh';
  addInbox(world, account, {
    kind: 'suggestion',
    title: zh ? '欢迎！问我任何关于你保存内容的问题' : 'Welcome! Ask me anything about what you save',
    body: zh ? '你能帮我做什么？' : 'What can you do for me?',
  });
}
