// $VISUAL / $EDITOR on a temporary file: write the text, run the editor with
// the terminal, read back what was saved, remove the file. child_process,
// fs/promises and os are taken (process.getBuiltinModule) only when an editor
// is opened: every command's output module reaches this file, and those
// built-ins cost start-up that an API call should not pay.
import type { Editor, IO } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const fsp = () => process.getBuiltinModule('node:fs/promises');

export function editorCommand(env: NodeJS.ProcessEnv): string | undefined {
  return env.VISUAL || env.EDITOR || undefined;
}

/** The editor every system of its kind has, when VISUAL and EDITOR name none. */
function platformEditor(): string {
  return process.platform === 'win32' ? 'notepad' : 'vi';
}

export function createEditor(io: IO): Editor {
  return {
    async edit(text, options = {}) {
      const command = editorCommand(io.env) ?? (io.canPrompt ? platformEditor() : undefined);
      if (!command) throw new UsageError('no editor: set VISUAL or EDITOR, or pass the content with a flag');
      const dir = await fsp().mkdtemp(join(process.getBuiltinModule('node:os').tmpdir(), 'kagent-edit-'));
      const file = join(dir, `edit${options.extension ?? '.md'}`);
      // However the process ends (a second Ctrl-C, SIGTERM or SIGHUP end it with process.exit), the copy goes.
      const onExit = () => rmSync(dir, { recursive: true, force: true });
      process.once('exit', onExit);
      let keep = false;
      try {
        await fsp().writeFile(file, text, { mode: 0o600 });
        const code = await runEditor(command, file, io.env);
        // Read back only a plain file: one the editor removed, or turned into a directory or a pipe, is no text.
        const saved = (
          await fsp()
            .lstat(file)
            .catch(() => undefined)
        )?.isFile()
          ? await fsp().readFile(file, 'utf8')
          : undefined;
        if (code !== 0) {
          // What was typed before the editor failed is not thrown away.
          keep = saved !== undefined && saved !== text;
          throw new CliError(
            `the editor (${command}) exited with status ${code}; nothing was changed${keep ? `; your text is kept in ${file}` : ''}`,
            { code: 'EDITOR_FAILED' },
          );
        }
        if (saved === undefined)
          throw new CliError(`the editor (${command}) left no file to read back; nothing was changed`, {
            code: 'EDITOR_FAILED',
          });
        return saved;
      } finally {
        process.off('exit', onExit);
        if (!keep) await fsp().rm(dir, { recursive: true, force: true });
      }
    },
  };
}

async function runEditor(command: string, file: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { spawn } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve, reject) => {
    // Through the shell, so EDITOR="code --wait" works; the path goes in as $1, never parsed.
    const child =
      process.platform === 'win32'
        ? spawn(`${command} "${file}"`, { stdio: 'inherit', shell: true, env })
        : spawn('/bin/sh', ['-c', `${command} "$1"`, 'kagent-editor', file], { stdio: 'inherit', env });
    child.on('error', (error) =>
      reject(new CliError(`could not start the editor (${command}): ${error.message}`, { code: 'EDITOR_FAILED' })),
    );
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}
