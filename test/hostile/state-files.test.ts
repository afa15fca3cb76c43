// The files kagent keeps — the config, the rate window shared by its processes —
// replaced by what is no plain file: a FIFO (opening one waits for a writer, and
// that wait held the whole process, Ctrl-C included) or /dev/zero behind a link
// (read forever). The config is then a clear error; the rate window is started
// afresh. Either way the command ends at once.
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBinary } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';

let s: BinarySandbox;
beforeAll(async () => {
  s = await binaryAgainstSandbox('kagent-state-files-');
});
afterAll(() => s.close());

const run = (args: string[], env: Record<string, string>) => runBinary(args, { PATH: process.env.PATH, ...env });

/** Makes `path` a FIFO, or a link to /dev/zero. */
function plant(path: string, kind: 'fifo' | 'zero'): void {
  rmSync(path, { force: true });
  if (kind === 'fifo') execFileSync('mkfifo', [path]);
  else symlinkSync('/dev/zero', path);
}

describe.each(['fifo', 'zero'] as const)('a %s', (kind) => {
  it('as the config file: CONFIG_UNREADABLE, exit 1, at once', async () => {
    const config = join(s.home, `config-${kind}`);
    mkdirSync(config, { recursive: true });
    plant(join(config, 'config.json'), kind);
    const r = await run(['me', '--json'], { ...s.env, KAGENT_CONFIG_DIR: config });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stderr).error).toEqual({
      code: 'CONFIG_UNREADABLE',
      message: `cannot read the config file ${join(config, 'config.json')}: it is not a plain file (a pipe, a device or a directory)`,
    });
  });

  it('as the shared rate window: the window starts afresh and the command succeeds', async () => {
    const cache = join(s.home, `cache-${kind}`);
    const env = { ...s.env, KAGENT_CACHE_DIR: cache };
    expect((await run(['me', '--json', 'id'], env)).status).toBe(0);
    const windows = readdirSync(cache).filter((name) => /^window-.*\.log$/.test(name));
    expect(windows).toHaveLength(1);
    plant(join(cache, windows[0]!), kind);
    const r = await run(['me', '--json', 'id'], env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('id');
  });
});

describe('a shared rate window that cannot be replaced (a directory with something in it stands there)', () => {
  it('the command still succeeds (paced in the process), and no temporary copy stays behind', async () => {
    const cache = join(s.home, 'cache-blocked');
    const env = { ...s.env, KAGENT_CACHE_DIR: cache };
    expect((await run(['me', '--json', 'id'], env)).status).toBe(0);
    const window = readdirSync(cache).find((name) => /^window-.*\.log$/.test(name))!;
    rmSync(join(cache, window));
    mkdirSync(join(cache, window, 'inside'), { recursive: true });
    const r = await run(['me', '--json', 'id'], env);
    expect(r.status).toBe(0);
    expect(readdirSync(cache).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
