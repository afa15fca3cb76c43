import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    const text = await createEditor(ioWith({ VISUAL: 'sed -i s/a/b/', EDITOR: 'false', PATH: process.env.PATH })).edit('aaa');
    expect(text).toBe('baa');
  });

  it('an editor that fails changes nothing (exit 1)', async () => {
    await expect(createEditor(ioWith({ EDITOR: 'false', PATH: process.env.PATH })).edit('x')).rejects.toMatchObject({ exitCode: 1, code: 'EDITOR_FAILED' });
  });

  it('without a terminal and without VISUAL/EDITOR it is a usage error', async () => {
    await expect(createEditor(ioWith({ PATH: process.env.PATH })).edit('x')).rejects.toMatchObject({ exitCode: 2 });
  });
});
