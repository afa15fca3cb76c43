import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createEditor } from '../../src/io/editor.js';
import { createIO } from '../../src/io/terminal.js';
import { tempDir } from '../helpers/run.js';

function ioWith(env: NodeJS.ProcessEnv) {
  const stream = () => Object.assign(new PassThrough(), { isTTY: false });
  return createIO({ stdin: stream(), stdout: stream(), stderr: stream() }, env, { color: false, input: true });
}

describe('the editor', () => {
  it('opens $EDITOR on a temporary file and returns what was saved', async () => {
    const script = join(tempDir(), 'fake-editor.sh');
    writeFileSync(script, '#!/bin/sh\nprintf "edited: " > "$1.tmp"; cat "$1" >> "$1.tmp"; mv "$1.tmp" "$1"\n');
    chmodSync(script, 0o755);
    const text = await createEditor(ioWith({ EDITOR: script, PATH: process.env.PATH })).edit('# Title\n');
    expect(text).toBe('edited: # Title\n');
  });

  it('VISUAL wins over EDITOR; arguments in the variable work', async () => {
    const text = await createEditor(ioWith({ VISUAL: 'sed -i s/a/b/', EDITOR: 'false', PATH: process.env.PATH })).edit(
      'aaa',
    );
    expect(text).toBe('baa');
  });

  it('an editor that fails changes nothing (exit 1)', async () => {
    await expect(createEditor(ioWith({ EDITOR: 'false', PATH: process.env.PATH })).edit('x')).rejects.toMatchObject({
      exitCode: 1,
      code: 'EDITOR_FAILED',
    });
  });

  it('an editor that fails after the text was changed: the text is kept in the file the message names', async () => {
    const script = join(tempDir(), 'typed-then-failed.sh');
    writeFileSync(script, '#!/bin/sh\necho "typed line" >> "$1"\nexit 3\n');
    chmodSync(script, 0o755);
    const error = (await createEditor(ioWith({ EDITOR: script, PATH: process.env.PATH }))
      .edit('# Draft\n')
      .catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('EDITOR_FAILED');
    const kept = /your text is kept in (\S+)$/.exec(error.message)?.[1];
    expect(error.message).toBe(
      `the editor (${script}) exited with status 3; nothing was changed; your text is kept in ${kept}`,
    );
    expect(readFileSync(kept!, 'utf8')).toBe('# Draft\ntyped line\n');
  });

  it('an editor that fails with the text unchanged keeps nothing', async () => {
    const error = (await createEditor(ioWith({ EDITOR: 'false', PATH: process.env.PATH }))
      .edit('x')
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('the editor (false) exited with status 1; nothing was changed');
  });

  it.each([
    ['removes the file', 'rm "$1"'],
    ['turns it into a directory', 'rm "$1" && mkdir "$1"'],
    ['turns it into a pipe', 'rm "$1" && mkfifo "$1"'],
  ])('an editor that %s: EDITOR_FAILED, nothing read', async (_name, body) => {
    const script = join(tempDir(), 'odd-editor.sh');
    writeFileSync(script, `#!/bin/sh\n${body}\n`);
    chmodSync(script, 0o755);
    await expect(createEditor(ioWith({ EDITOR: script, PATH: process.env.PATH })).edit('x')).rejects.toMatchObject({
      code: 'EDITOR_FAILED',
      message: `the editor (${script}) left no file to read back; nothing was changed`,
    });
  });

  it('without a terminal and without VISUAL/EDITOR it is a usage error', async () => {
    await expect(createEditor(ioWith({ PATH: process.env.PATH })).edit('x')).rejects.toMatchObject({ exitCode: 2 });
  });

  it('the temporary copy is removed however the process ends: an exit hook while the editor is open, gone after', async () => {
    const dir = tempDir();
    const script = join(dir, 'slow-editor.sh');
    // Says where the file is, then waits until the test lets it go.
    writeFileSync(
      script,
      `#!/bin/sh\necho "$1" > ${dir}/opened\nfor i in $(seq 1 100); do [ -e ${dir}/release ] && exit 0; sleep 0.05; done\nexit 1\n`,
    );
    chmodSync(script, 0o755);
    const before = new Set(process.listeners('exit'));
    const editing = createEditor(ioWith({ EDITOR: script, PATH: process.env.PATH })).edit('# Draft\n');
    for (let i = 0; i < 100 && !existsSync(join(dir, 'opened')); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const file = readFileSync(join(dir, 'opened'), 'utf8').trim();
    expect(existsSync(file)).toBe(true);
    const hooks = process.listeners('exit').filter((listener) => !before.has(listener));
    expect(hooks).toHaveLength(1);
    // What process.exit (a second Ctrl-C, SIGTERM, SIGHUP) would run:
    (hooks[0] as () => void)();
    expect(existsSync(dirname(file))).toBe(false);
    writeFileSync(join(dir, 'release'), '');
    await expect(editing).rejects.toMatchObject({ code: 'EDITOR_FAILED' });
    expect(process.listeners('exit').filter((listener) => !before.has(listener))).toHaveLength(0);
  });
});
