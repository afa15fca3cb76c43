// The launcher (bin/kagent.js) and package.json's "engines": a Node outside the
// range gets one line naming the Node kagent needs and the one it found, and
// exit 2, before any of the bundle loads; a Node inside it runs kagent. Node 18
// is a real Node 18, installed from the registry by scripts/nodes.mjs (the test
// fails when it cannot be installed).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { satisfies } from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { bin, ensureBuilt, root, testNode } from '../helpers/binary.js';

let node18: string;
const dir = mkdtempSync(join(tmpdir(), 'kagent-engines-'));
beforeAll(() => {
  ensureBuilt();
  const installed = spawnSync(process.execPath, [join(root, 'scripts', 'nodes.mjs'), '--version', '18'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (installed.status !== 0)
    throw new Error(`scripts/nodes.mjs could not install Node 18 (exit ${installed.status}):\n${installed.stderr}`);
  const line = /^18 (\S.*)$/m.exec(installed.stdout);
  if (!line) throw new Error(`scripts/nodes.mjs --version 18 printed no path:\n${installed.stdout}`);
  node18 = line[1] as string;
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = {
  PATH: process.env.PATH,
  HOME: dir,
  KAGENT_CONFIG_DIR: join(dir, 'config'),
  KAGENT_CACHE_DIR: join(dir, 'cache'),
  NO_COLOR: '1',
};

describe('a Node outside package.json "engines"', () => {
  it('Node 18: one line naming the Node kagent needs and the one it found, exit 2, for any command', () => {
    const found = spawnSync(node18, ['--version'], { encoding: 'utf8' }).stdout.trim();
    expect(found).toMatch(/^v18\.\d+\.\d+$/);
    expect(satisfies(found, pkg.engines.node)).toBe(false);
    // An API call (before: NETWORK_ERROR, exit 7, from deep inside the bundle), --version, and no command at all.
    for (const args of [['me', '--json'], ['--version'], []]) {
      const r = spawnSync(node18, [bin, ...args], {
        encoding: 'utf8',
        env: { ...env, KAGENT_API_KEY: 'kak_x', KAGENT_BASE_URL: 'http://127.0.0.1:9/api/v1' },
        timeout: 30_000,
      });
      expect(r.stderr, args.join(' ')).toBe(
        `kagent needs Node ${pkg.engines.node}, but this is Node ${found.slice(1)}: run it with a supported Node.\n`,
      );
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.status, args.join(' ')).toBe(2);
    }
  });

  it('a supported Node runs kagent', () => {
    const r = spawnSync(testNode, [bin, '--version'], { encoding: 'utf8', env, timeout: 30_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^kagent version /);
    expect(r.status).toBe(0);
  });
});

describe('the range the launcher checks', () => {
  /** The launcher in a package of its own whose "engines" is `range`, and a dist/cli.js that says it ran. */
  function launch(range: string) {
    const pkgDir = mkdtempSync(join(dir, 'pkg-'));
    mkdirSync(join(pkgDir, 'bin'));
    mkdirSync(join(pkgDir, 'dist'));
    copyFileSync(bin, join(pkgDir, 'bin', 'kagent.js'));
    copyFileSync(join(bin, '..', 'package.json'), join(pkgDir, 'bin', 'package.json'));
    writeFileSync(join(pkgDir, 'package.json'), JSON.stringify({ type: 'module', engines: { node: range } }));
    // A front that answers nothing, so that every run reaches the program.
    writeFileSync(join(pkgDir, 'dist', 'front.cjs'), 'exports.answerWithoutProgram = () => undefined;\n');
    writeFileSync(join(pkgDir, 'dist', 'cli.js'), "process.stdout.write('ran\\n');\n");
    return spawnSync(testNode, [join(pkgDir, 'bin', 'kagent.js')], { encoding: 'utf8', env, timeout: 30_000 });
  }

  it('is read from package.json, and agrees with semver on the forms an "engines" range is written in', () => {
    const version = spawnSync(testNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
    const ranges = [
      pkg.engines.node,
      `^${version}`,
      `^${major}.${minor + 1}.0`,
      `^${major}`,
      `^${major}.${minor}`,
      `^${major - 2}.0.0 || ^${major + 2}.0.0`,
      `~${major}.${minor}.0`,
      `~${major}.${minor + 1}`,
      `~${major}`,
      `>=${major}.${minor}.${patch + 1}`,
      `>=${major}`,
      `>${major}`,
      `>${major - 1}`,
      `>${version}`,
      `<${major}`,
      `<=${major}`,
      `<=${version}`,
      `<${version}`,
      `${version}`,
      `=${major}.${minor}`,
      `>=${major}.${minor}.0 <${major}.${minor}.${patch + 1}`,
      `>=${major + 1} || <${major}`,
    ];
    for (const range of ranges) {
      const r = launch(range);
      const fits = satisfies(version, range);
      expect(r.status, `Node ${version} in "${range}"`).toBe(fits ? 0 : 2);
      expect(r.stdout, `Node ${version} in "${range}"`).toBe(fits ? 'ran\n' : '');
      expect(r.stderr, `Node ${version} in "${range}"`).toBe(
        fits ? '' : `kagent needs Node ${range}, but this is Node ${version}: run it with a supported Node.\n`,
      );
    }
  });

  it('a form it does not read (an x-range, a hyphen range) never stops kagent', () => {
    for (const range of ['1.x', '1 - 2', '>= 1']) expect(launch(range).stdout, range).toBe('ran\n');
  });
});
