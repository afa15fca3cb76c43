// A newcomer's first session, as the README tells it, with the built binary in
// pseudo-terminals of 40 and 80 columns (`script` from util-linux): a sandbox in
// one terminal (it saves the `sandbox` profile), then in another `kagent me`,
// `config use sandbox`, `watch create` (answering its visibility prompt), `lib
// upload` of a folder, and `doc edit` in vi left with `:wq` and no change.
// Every line kagent shows fits the terminal, and the unchanged edit writes no
// revision. vi comes from Debian's vim-tiny (.ci/run installs it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/io/width.js';
import { bin, ensureBuilt, kagentCommandLine, plain, runInPty, testNode } from '../helpers/binary.js';

let home: string;
beforeAll(() => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), 'kagent-first-session-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/**
 * The lines of a terminal's output wider than `cols` (none, when all is well). A
 * cursor move or a line erased starts a new line (a prompt redrawn in place); a
 * URL or a command in backticks is never split (it stays whole to be copied
 * and clicked), so a line that is only one, after its indentation or arrow,
 * may run past the edge.
 */
function tooWide(output: string, cols: number): string[] {
  return plain(output.replace(/\x1b\[[0-9;]*[GKAB]/g, '\n'))
    .split('\n')
    .filter((line) => displayWidth(line) > cols && !/^\s*(?:→\s+)?(?:https?:\/\/\S+|\W*`[^`]*`\W*)$/.test(line));
}

/** `kagent sandbox` in a terminal of its own, until `stop()`; resolves once it listens. */
async function sandboxInPty(env: Record<string, string>, cols: number) {
  const child: ChildProcess = spawn(
    'script',
    [
      '-qefc',
      `stty cols ${cols} rows 40; exec ${kagentCommandLine(['sandbox', '--port', '0', '--speed', '60'])}`,
      '/dev/null',
    ],
    { env: { PATH: process.env.PATH, TERM: 'xterm-256color', ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start:\n${plain(output)}`)), 20_000);
    const poll = setInterval(() => {
      if (/Try it/.test(plain(output))) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }
    }, 50);
  });
  return {
    get output() {
      return output;
    },
    async stop() {
      const closed = new Promise((resolve) => child.on('close', resolve));
      child.stdin!.write('\x03');
      await closed;
    },
  };
}

/** Runs a piped kagent command (a script's view) in the same config: stdout as text. */
function piped(env: Record<string, string>, args: string[]): string {
  const r = spawnSync(testNode, [bin, ...args], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

describe.each([40, 80])('a first session at %i columns', (cols) => {
  it('sandbox, me, watch create, lib upload of a folder, doc edit left unchanged in vi: every line fits, no revision written', async () => {
    const dir = mkdtempSync(join(home, `session-${cols}-`));
    const env = {
      HOME: dir,
      KAGENT_CONFIG_DIR: join(dir, 'config'),
      KAGENT_CACHE_DIR: join(dir, 'cache'),
      EDITOR: 'vi',
      LANG: 'C.UTF-8',
    };
    const sandbox = await sandboxInPty(env, cols);
    try {
      const shown: string[] = [];
      const inPty = async (args: string[], steps: { wait: RegExp; type: string }[] = []) => {
        const run = await runInPty(args, { env, cols, rows: 40, steps, timeoutMs: 30_000 });
        shown.push(run.output);
        expect(run.code, `${args.join(' ')}:\n${plain(run.output)}`).toBe(0);
        return plain(run.output);
      };

      // Nothing chosen yet but the profile the sandbox saved: `me` says how to use it (exit 3, configuration).
      const me = await runInPty(['me'], { env, cols, rows: 40, timeoutMs: 30_000 });
      shown.push(me.output);
      expect(me.code).toBe(3);
      expect(plain(me.output).replace(/\s+/g, ' ')).toContain('`kagent config use sandbox`');
      await inPty(['config', 'use', 'sandbox']);
      expect(await inPty(['me'])).toMatch(/you@sandbox\.test/);

      const watch = await inPty(
        ['watch', 'create', 'Rust releases', '--type', 'sources', '--url', 'https://blog.rust-lang.org/'],
        [{ wait: /visib|public|private/i, type: '\r' }],
      );
      expect(watch).toMatch(/public|private/i);

      const folder = join(dir, 'notes');
      mkdirSync(join(folder, 'deeper'), { recursive: true });
      for (let i = 0; i < 6; i++)
        writeFileSync(
          join(folder, i % 2 ? `deeper/note-${i}.md` : `note-${i}.md`),
          `# Note ${i}\n\n${'text '.repeat(400)}\n`,
        );
      const upload = await inPty(['lib', 'upload', folder]);
      expect(upload).toMatch(/✓/);

      const created = JSON.parse(
        piped(env, ['doc', 'create', '--title', 'Plans', '--body', '# Plans\n\nFirst line.\nSecond line.', '--json']),
      );
      // vi shows the body; :wq saves it unchanged (vi ends the file with a newline).
      const edit = await runInPty(['doc', 'edit', created.id], {
        env,
        cols,
        rows: 40,
        steps: [{ wait: /Second line\./, type: ':wq\r' }],
        timeoutMs: 30_000,
      });
      expect(edit.code, plain(edit.output)).toBe(0);
      expect(edit.typed).toBe(1);
      const after = JSON.parse(piped(env, ['doc', 'show', created.id, '--json']));
      expect(after.revision).toBe(created.revision);
      expect(after.body ?? after.content).toBe('# Plans\n\nFirst line.\nSecond line.');

      for (const output of shown) expect(tooWide(output, cols)).toEqual([]);
    } finally {
      await sandbox.stop();
    }
    expect(tooWide(sandbox.output, cols)).toEqual([]);
  }, 180_000);
});
