// The package as a user gets it: `npm pack` of a clean copy of this repository
// (its `prepack` builds dist/ there), then `npm install -g` of the tarball into
// a temporary prefix with a fresh HOME. Used by test/e2e/package-install.test.ts
// and by `npm run bench` (the install's package count, size and time).
// The install reads the local npm cache (`--prefer-offline`): with the
// dependencies there (after `npm ci` and one earlier run) it needs no network.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The repository as a clone has it: everything but what installing, building and testing leave behind. */
const LEFT_OUT = new Set([
  '.git',
  'node_modules',
  'dist',
  'dist.next',
  'dist.old',
  'coverage',
  'test',
  '.vitest-result.json',
]);
const sources = () => readdirSync(root).filter((name) => !LEFT_OUT.has(name) && !name.endsWith('.tgz'));

function npm(args, options) {
  const result = spawnSync('npm', args, { encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr}`);
  return result;
}

/** Every installed package under a node_modules folder (scoped ones too), as `name` relative paths. */
export function installedPackages(nodeModules) {
  const found = [];
  const visit = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('.')) continue;
      const path = join(dir, entry);
      if (entry.startsWith('@')) {
        for (const scoped of readdirSync(path)) {
          found.push(`${entry}/${scoped}`);
          visit(join(path, scoped, 'node_modules'));
        }
        continue;
      }
      found.push(entry);
      visit(join(path, 'node_modules'));
    }
  };
  visit(nodeModules);
  return found;
}

/** Bytes of every file under a folder (links not followed). */
export function folderBytes(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += folderBytes(path);
    else bytes += lstatSync(path).size;
  }
  return bytes;
}

/**
 * `npm pack` of a clean copy of the repository in a new temporary folder (its
 * prepack builds dist/ there), with a fresh HOME; `env` is added to the
 * environment. Returns the folder, the copy, the environment, the tarball and
 * what `npm pack --json` reported.
 */
export function pack(extraEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kagent-package-'));
  const copy = join(dir, 'kagent');
  mkdirSync(copy);
  for (const name of sources()) cpSync(join(root, name), join(copy, name), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // The user's npm cache, read before HOME is replaced.
  const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  const home = join(dir, 'home');
  mkdirSync(home);
  const env = {
    ...process.env,
    HOME: home,
    npm_config_cache: cache,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  for (const name of Object.keys(env)) if (/^(KAGENT_|XDG_)/.test(name)) delete env[name];
  Object.assign(env, extraEnv);

  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], { cwd: copy, env }).stdout)[0];
  return {
    dir,
    copy,
    home,
    env,
    tarball: join(dir, packed.filename),
    packed,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Packs and installs kagent. Returns the paths (prefix, bin, man dir, home), what
 * `npm pack --json` reported, the install's stderr, time, packages and bytes.
 */
export function packAndInstall() {
  const { dir, home, env, tarball, packed } = pack();
  const prefix = join(dir, 'prefix');
  const started = process.hrtime.bigint();
  const install = npm(['install', '--global', '--prefix', prefix, '--prefer-offline', tarball], { cwd: dir, env });
  const installMs = Number(process.hrtime.bigint() - started) / 1e6;
  const nodeModules = join(prefix, 'lib', 'node_modules');
  return {
    dir,
    home,
    env,
    tarball,
    packed,
    prefix,
    bin: join(prefix, 'bin', 'kagent'),
    manDir: join(prefix, 'share', 'man'),
    packageDir: join(nodeModules, 'kagent'),
    installStderr: install.stderr,
    installMs,
    packages: installedPackages(nodeModules),
    bytes: folderBytes(nodeModules),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
