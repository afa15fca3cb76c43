// kagent as a user installs it: `npm pack` of a clean copy of the repository
// (prepack builds it), `npm install -g` of the tarball into a temporary prefix
// with a fresh HOME (dependencies from the local npm cache), then the installed
// binary: --version, a sandbox and one API command against it, a man page, and
// the `kagent/sandbox` export with its types.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { packAndInstall, type Installed } from '../bench/package.mjs';
import { root } from '../helpers/binary.js';

let installed: Installed;
beforeAll(() => {
  installed = packAndInstall();
}, 240_000);
afterAll(() => installed?.remove());

/** The installed binary with the user's fresh HOME, nothing of this machine's kagent settings. */
function kagent(args: string[], env: Record<string, string> = {}) {
  return spawnSync(installed.bin, args, {
    encoding: 'utf8',
    cwd: installed.dir,
    env: { ...installed.env, ...env },
    timeout: 60_000,
  });
}

describe('the packed tarball', () => {
  it('holds the binary, the bundle, its licences, man pages and declarations, and no sources', () => {
    const files = installed.packed.files.map((file) => file.path);
    for (const file of [
      'package.json',
      'LICENSE',
      'README.md',
      'bin/kagent.js',
      'bin/package.json',
      'dist/front.cjs',
      'dist/cli.js',
      'dist/sandbox.js',
      'dist/THIRD-PARTY-NOTICES.md',
      'dist/man/kagent.1',
      'types/sandbox.d.ts',
      'completions/kagent.bash',
    ]) {
      expect(files, file).toContain(file);
    }
    for (const page of pkg.man) expect(files, page).toContain(page.replace(/^\.\//, ''));
    expect(
      files.filter((file) => /^(src|test|scripts)\//.test(file) || (file.endsWith('.ts') && !file.endsWith('.d.ts'))),
    ).toEqual([]);
    // prepack built it: the date the build recorded is in the man page.
    expect(readFileSync(join(installed.packageDir, 'dist', 'man', 'kagent.1'), 'utf8')).toMatch(
      /^\.TH "KAGENT" 1 "\d{4}-\d\d-\d\d"/m,
    );
  });

  it('installs with its runtime dependencies only, running no install script', () => {
    const dependencies = installed.packages.filter((name) => name !== 'kagent');
    for (const name of Object.keys(pkg.dependencies)) expect(dependencies).toContain(name);
    for (const name of Object.keys(pkg.devDependencies)) expect(dependencies, name).not.toContain(name);
    expect(installed.installStderr).not.toMatch(/install-scripts|allow-scripts/i);
    const manifest = JSON.parse(readFileSync(join(installed.packageDir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts?.[hook], hook).toBeUndefined();
  });
});

describe('the installed kagent', () => {
  it('--version prints the version and the build date', () => {
    const r = kagent(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^kagent version ${pkg.version.replace(/\./g, '\\.')} \\(\\d{4}-\\d\\d-\\d\\d\\)\\n$`),
    );
  });

  it('runs a sandbox, and an API command against it', async () => {
    const sandbox = spawn(
      installed.bin,
      ['sandbox', '--port', '0', '--json', '--rate-limit', '0', '--quiet', '--no-save-profile'],
      { cwd: installed.dir, env: installed.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let out = '';
      const info = await new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no sandbox address; stdout: ${out}`)), 30_000);
        sandbox.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          try {
            resolve(JSON.parse(out));
            clearTimeout(timer);
          } catch {
            // not all of it yet
          }
        });
        sandbox.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
      });
      expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const created = kagent(['space', 'create', 'Installed'], {
        KAGENT_BASE_URL: info.baseUrl,
        KAGENT_API_KEY: info.apiKey,
      });
      expect(created.stderr).toBe('');
      expect(created.status).toBe(0);
      const list = kagent(['space', 'list', '--json'], { KAGENT_BASE_URL: info.baseUrl, KAGENT_API_KEY: info.apiKey });
      expect(list.status).toBe(0);
      expect(
        (JSON.parse(list.stdout) as Array<{ id: string; name: string }>).find((space) => space.name === 'Installed')
          ?.id,
      ).toBe(created.stdout.trim());
    } finally {
      const exited = new Promise((resolve) => sandbox.on('exit', resolve));
      sandbox.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  }, 60_000);

  it('has its man pages where man finds them: `man -l` of a shipped page, and `man kagent` by name', () => {
    const page = join(installed.manDir, 'man1', 'kagent-space.1');
    expect(readlinkSync(page)).toContain(join('kagent', 'dist', 'man', 'kagent-space.1'));
    const env = { ...installed.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' };
    const byFile = spawnSync('man', ['-l', page], { encoding: 'utf8', env });
    expect(byFile.error, 'man (Debian package man-db) must be installed').toBeUndefined();
    expect(byFile.status).toBe(0);
    expect(byFile.stdout).toMatch(/^NAME\n {7}kagent-space - List, show, create, edit and delete spaces$/m);
    expect(byFile.stdout).toContain('kagent space create <name> [flags]');
    const byName = spawnSync('man', ['kagent'], { encoding: 'utf8', env: { ...env, MANPATH: installed.manDir } });
    expect(byName.status).toBe(0);
    expect(byName.stdout).toMatch(/^NAME\n {7}kagent - command-line client/m);
  });

  it('exports kagent/sandbox to programs, with types a TypeScript consumer checks against', () => {
    const consumer = join(installed.dir, 'consumer');
    mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    symlinkSync(installed.packageDir, join(consumer, 'node_modules', 'kagent'), 'dir');
    writeFileSync(join(consumer, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(consumer, 'main.ts'),
      "import { startSandbox, type Sandbox } from 'kagent/sandbox';\n" +
        'const sandbox: Sandbox = await startSandbox({ port: 0, quiet: true, autoAdvance: false });\n' +
        'sandbox.world.advance(1000);\n' +
        'const answer = await fetch(`${sandbox.baseUrl}/me`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });\n' +
        'console.log(answer.status);\n' +
        'await sandbox.close();\n',
    );
    // A call the declarations do not allow is caught; the right one passes (one tsc run for both).
    writeFileSync(
      join(consumer, 'bad.ts'),
      "import { startSandbox } from 'kagent/sandbox';\nawait startSandbox({ port: 'eighty' });\n",
    );
    const tsc = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        join(root, 'node_modules', '@types'),
        'main.ts',
        'bad.ts',
      ],
      { cwd: consumer, encoding: 'utf8' },
    );
    const errors = (tsc.stdout + tsc.stderr).split('\n').filter((line) => /error TS/.test(line));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^bad\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
    // And it runs: the JavaScript the consumer would write.
    writeFileSync(
      join(consumer, 'main.mjs'),
      readFileSync(join(consumer, 'main.ts'), 'utf8').replace(', type Sandbox', '').replace(': Sandbox', ''),
    );
    const run = spawnSync(process.execPath, ['main.mjs'], { cwd: consumer, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('200\n');
    // Deep imports of the bundle are closed by the exports map.
    const deep = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('kagent/dist/cli.js')"], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(deep.stderr).toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
    expect(existsSync(join(installed.packageDir, 'types', 'sandbox.d.ts'))).toBe(true);
  }, 60_000);
});
