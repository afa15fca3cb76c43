// startSandbox(): the local double of the whole API on 127.0.0.1. Used by
// `kagent sandbox`, by the demo, and by the tests (in-process, port 0).
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Faults } from './faults.js';
import { sweep } from './idempotency.js';
import { RateLimiter } from './ratelimit.js';
import { jobs, routes } from './routes/index.js';
import { seedWorld } from './seed.js';
import { SANDBOX_DEFAULTS } from './settings.js';
import { isAlive, lockStateFile, type StateLock } from './statelock.js';
import { createHandler, type SandboxStats, type ServerDeps } from './server.js';
import type { Sandbox as PublicSandbox } from './public.js';
import type { SandboxOptions } from './types.js';
import { World } from './world.js';
import { pdfExtractionProblem, pdfWarning } from './library/extract.js';

export type { SandboxOptions } from './types.js';

/** The public Sandbox (public.ts), with the parts kagent's own tests reach into. */
export interface Sandbox extends PublicSandbox {
  world: World;
  limiter: RateLimiter;
  faults: Faults;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  // One sandbox per state file: a second one is refused before it reads anything.
  const lock = options.stateFile
    ? await lockStateFile(options.stateFile, {
        onLost: (error) => options.log?.(`warning: lost the lock on ${options.stateFile}: ${error.message}`),
      })
    : undefined;
  try {
    return await startLocked(options, lock);
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

async function startLocked(options: SandboxOptions, lock: StateLock | undefined): Promise<Sandbox> {
  const { world, blobDir, ownBlobDir } = await openWorld(options);
  const { apiKey, accountId } = defaultAccount(world, options.apiKey);
  // With --state: a snapshot of this start, then every change goes to the journal before it is answered.
  await world.openJournal();

  const stats: SandboxStats = { requests: {}, executions: {}, statuses: {} };
  // The window runs on real time plus explicit clock advances: moving the clock a minute
  // (tests, admin route) frees the budget, while --speed does not make the limit more lenient.
  const limiter = new RateLimiter(
    options.rateLimit ?? SANDBOX_DEFAULTS.rateLimit,
    () => Date.now() + world.clock.advancedMs,
  );
  const faults = new Faults(options.faults, world.rng('faults'));
  const server = createSandboxServer(options, { world, routes, limiter, faults, stats });
  const port = await listen(server, options);
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const timers = startTimers(world, options);

  return {
    baseUrl: `${origin}/api/v1`,
    origin,
    port,
    apiKey,
    accountId,
    world,
    stats,
    limiter,
    faults,
    server,
    async close() {
      timers.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      try {
        await world.closeJournal();
      } finally {
        await lock?.release();
        if (ownBlobDir) rmSync(blobDir, { recursive: true, force: true });
      }
    },
  };
}

/** The world, from the state file or new, with its blob directory (`ownBlobDir`: a temporary one, removed on close). */
async function openWorld(options: SandboxOptions): Promise<{ world: World; blobDir: string; ownBlobDir: boolean }> {
  const ownBlobDir = !options.blobDir && !options.stateFile;
  if (ownBlobDir) removeOrphanedBlobDirs();
  // Named after this process, so a later sandbox can tell it was left behind by one that was killed.
  const blobDir =
    options.blobDir ??
    (options.stateFile ? `${options.stateFile}.blobs` : mkdtempSync(join(tmpdir(), `kagent-sandbox-${process.pid}-`)));
  const world = World.create({
    seed: options.seed ?? SANDBOX_DEFAULTS.seed,
    start: options.startTime ?? Date.now(),
    speed: options.speed ?? SANDBOX_DEFAULTS.speed,
    blobDir,
    stateFile: options.stateFile,
  });
  world.registerJobs(jobs);
  if (!ownBlobDir) removeUnfinishedUploads(blobDir);
  if (options.warn) world.warn = options.warn;
  if (options.checkExtractors) {
    const problem = await pdfExtractionProblem();
    if (problem) world.warn(pdfWarning(problem));
  }
  return { world, blobDir, ownBlobDir };
}

/** The HTTP server running the request pipeline (not listening yet). */
function createSandboxServer(
  options: SandboxOptions,
  deps: Pick<ServerDeps, 'world' | 'routes' | 'limiter' | 'faults' | 'stats'>,
): Server {
  const handler = createHandler({
    ...deps,
    errorFormat: options.errorFormat ?? SANDBOX_DEFAULTS.errorFormat,
    log: options.quiet ? undefined : options.log,
  });
  const server = createServer({ keepAliveTimeout: 5000 }, handler);
  // `Expect: 100-continue` (curl -T does this): the pipeline says "continue" only once it wants the
  // body, so a refused upload (401, 413, 415...) is answered before a byte of it is sent.
  server.on('checkContinue', handler);
  return server;
}

/** Listens on the host and port of the options; the port it got. */
async function listen(server: Server, options: SandboxOptions): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** The background timers: the clock ticker (unless autoAdvance is false) and the idempotency sweeper. */
function startTimers(world: World, options: SandboxOptions): { stop(): void } {
  // With real time passing, background work comes due on its own (and is saved like any change).
  // A failure to save is said once, not every 250 ms (the commit is retried each tick).
  let failing = false;
  const ticker =
    options.autoAdvance === false
      ? undefined
      : setInterval(() => {
          world.runDue();
          world.commit().then(
            () => (failing = false),
            (error: Error) => {
              if (!failing) options.log?.(`warning: could not save the state: ${error.message}`);
              failing = true;
            },
          );
        }, 250);
  ticker?.unref();
  const sweeper = setInterval(() => sweep(world), 60_000);
  sweeper.unref();
  return {
    stop() {
      if (ticker) clearInterval(ticker);
      clearInterval(sweeper);
    },
  };
}

/** The default account: reused from a persisted state, or made (with its seeded content) on first start. */
function defaultAccount(world: World, wanted: string | undefined): { apiKey: string; accountId: string } {
  let accountId = Object.values(world.state.keys)[0];
  let apiKey = Object.keys(world.state.keys)[0];
  if (wanted && world.state.keys[wanted]) {
    apiKey = wanted;
    accountId = world.state.keys[wanted];
  }
  if (!apiKey || !accountId) {
    const created = world.createAccount({ apiKey: wanted, email: 'you@sandbox.test', name: 'Sandbox User' });
    apiKey = created.apiKey;
    accountId = created.account.id;
    seedWorld(world, created.account);
  }
  return { apiKey, accountId };
}

/** Uploads cut short by a crash leave `files/incoming-*` behind: nothing refers to them. */
function removeUnfinishedUploads(blobDir: string): void {
  let names: string[];
  try {
    names = readdirSync(join(blobDir, 'files'));
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith('incoming-')) rmSync(join(blobDir, 'files', name), { force: true });
}

/** Temp dirs of sandboxes that were killed (kill -9: no chance to clean up) and whose process is gone. */
function removeOrphanedBlobDirs(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^kagent-sandbox-(\d+)-\w+$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}
