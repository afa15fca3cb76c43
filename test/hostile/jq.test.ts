// --jq runs jq in a worker thread: a program that never ends is ended by
// --timeout (TIMEOUT, exit 7), Ctrl-C (130) and SIGTERM (143); one that needs
// more memory than the engine has is a clear error naming the limit (not the
// engine's "Aborted(). Build with -sASSERTIONS"); endless output ends when its
// reader leaves; jq sees the real environment; halt_error exits as jq does.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, runTimed, testNode, type TimedRun } from '../helpers/binary.js';
import { tempDir } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

let server: TinyServer;
beforeAll(async () => {
  ensureBuilt();
  server = await tinyServer(() => ({ status: 200, body: { id: 'acc_1', name: 'Ada', limits: {} } }));
});
afterAll(() => server.close());

/** The built `kagent ARGS…`; `signalAfterMs` sends `signal` then. Whatever happens, no test waits past 20 s. */
function kagent(
  args: string[],
  options: { env?: Record<string, string>; signal?: NodeJS.Signals; signalAfterMs?: number } = {},
): Promise<TimedRun> {
  const home = tempDir('kagent-jq-');
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    KAGENT_CONFIG_DIR: home,
    KAGENT_CACHE_DIR: home,
    KAGENT_BASE_URL: server.baseUrl,
    KAGENT_API_KEY: 'kak_jq0123456789abcdef',
    ...options.env,
  };
  return runTimed(args, { env, signal: options.signal, signalAfterMs: options.signalAfterMs, guardMs: 20_000 });
}

/** With --jq, an error is a JSON envelope on stderr. */
function errorOf(r: TimedRun): { code: string; message: string } {
  return (JSON.parse(r.stderr) as { error: { code: string; message: string } }).error;
}

describe('a --jq program that never ends', () => {
  it('kagent me --jq "def f: f; f" --timeout 2 exits 7 (TIMEOUT) within 3 s', async () => {
    const r = await kagent(['me', '--jq', 'def f: f; f', '--timeout', '2']);
    expect(errorOf(r)).toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/--timeout \(2 s\) ran out/) });
    expect(r.code).toBe(7);
    expect(r.elapsedMs).toBeLessThan(3_000);
  });

  it('Ctrl-C ends it: 130', async () => {
    const r = await kagent(['me', '--jq', 'def f: f; f'], { signal: 'SIGINT', signalAfterMs: 1_500 });
    expect(r.code).toBe(130);
    expect(r.elapsedMs).toBeLessThan(4_000);
  });

  it('SIGTERM ends it: 143', async () => {
    const r = await kagent(['me', '--jq', 'def f: f; f'], { signal: 'SIGTERM', signalAfterMs: 1_500 });
    expect(r.code).toBe(143);
    expect(r.elapsedMs).toBeLessThan(4_000);
  });
});

describe('a --jq program that needs more memory than the engine has', () => {
  it('[range(1e9)] is JQ_OUT_OF_MEMORY naming the limit, exit 1, not an engine failure', async () => {
    const r = await kagent(['me', '--jq', '[range(1e9)] | length', '--timeout', '60']);
    expect(errorOf(r)).toMatchObject({
      code: 'JQ_OUT_OF_MEMORY',
      message: expect.stringMatching(/needs more memory than the jq engine has \(256 MiB\)/),
    });
    expect(r.stderr).not.toMatch(/ASSERTIONS|Aborted|JQ_UNAVAILABLE/);
    expect(r.code).toBe(1);
  }, 30_000);
});

describe('endless output', () => {
  it('repeat(.) ends once its reader has gone (| head)', async () => {
    const started = Date.now();
    const out = await new Promise<{ status: number | null; text: string }>((resolve) => {
      const home = tempDir('kagent-jq-');
      const child = spawn('sh', ['-c', `'${testNode}' '${bin}' me --jq 'repeat(.name)' | head -n 3`], {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          KAGENT_CONFIG_DIR: home,
          KAGENT_CACHE_DIR: home,
          KAGENT_BASE_URL: server.baseUrl,
          KAGENT_API_KEY: 'kak_jq0123456789abcdef',
        },
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('close', (status) => (clearTimeout(guard), resolve({ status, text })));
    });
    expect(out.status).toBe(0);
    expect(out.text.split('\n').slice(0, 3)).toEqual(['Ada', 'Ada', 'Ada']);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});

describe('jq as jq runs', () => {
  it('sees the real environment ($ENV and env)', async () => {
    const r = await kagent(['me', '--jq', '[$ENV.WHO, env.WHO, (.name == $ENV.WHO)]', '-q'], {
      env: { WHO: 'Ada' },
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(['Ada', 'Ada', true]);
    expect(r.code).toBe(0);
  });

  it('halt_error exits 5 with its message, not an engine failure', async () => {
    const r = await kagent(['me', '--jq', '"stopped here" | halt_error']);
    expect(r.code).toBe(5);
    expect(errorOf(r)).toMatchObject({ code: 'JQ_HALT', message: 'stopped here' });
    expect(r.stderr).not.toMatch(/engine|JQ_UNAVAILABLE/);
  });

  it('halt_error(3) exits 3', async () => {
    const r = await kagent(['me', '--jq', '"x" | halt_error(3)']);
    expect(r.code).toBe(3);
  });

  it('a jq error stays a usage error (exit 2) in jq words', async () => {
    const r = await kagent(['me', '--jq', '.name | error("bad")']);
    expect(r.code).toBe(2);
    expect(errorOf(r)).toMatchObject({ code: 'JQ_ERROR', message: expect.stringMatching(/jq: error .*bad/) });
  });
});
