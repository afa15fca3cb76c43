// The benchmarks run every command in an environment without Node's own
// variables: inherited, NODE_EXTRA_CA_CERTS makes Node 20 parse a CA bundle
// before any script, on both sides of every ratio, and hid most of a command's
// cost (test/bench/timing.mjs).
import { afterEach, describe, expect, it } from 'vitest';
import { benchEnv, runOnce } from '../bench/timing.mjs';

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

describe('benchEnv', () => {
  it('leaves out every NODE_ variable it would inherit, keeps the rest, and adds what it is given', () => {
    process.env.NODE_EXTRA_CA_CERTS = '/nowhere/ca.pem';
    process.env.NODE_OPTIONS = '--max-old-space-size=64';
    process.env.KAGENT_BENCH_KEEP = 'kept';
    const env = benchEnv({ NODE_DISABLE_COMPILE_CACHE: '1', EXTRA: 'given' });
    expect(env.NODE_EXTRA_CA_CERTS).toBeUndefined();
    expect(env.NODE_OPTIONS).toBeUndefined();
    expect(env.KAGENT_BENCH_KEEP).toBe('kept');
    expect(env.PATH).toBe(process.env.PATH);
    // A benchmark that wants one of Node's variables says so.
    expect(env.NODE_DISABLE_COMPILE_CACHE).toBe('1');
    expect(env.EXTRA).toBe('given');
  });

  it('is the environment a timed run gets', async () => {
    process.env.NODE_EXTRA_CA_CERTS = '/nowhere/ca.pem';
    const script = 'process.stdout.write(JSON.stringify([process.env.NODE_EXTRA_CA_CERTS ?? null, process.env.GIVEN]))';
    const run = await runOnce([process.execPath, '-e', script], () => ({ GIVEN: 'yes' }));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([null, 'yes']);
  });
});
