#!/usr/bin/env node
// The other Node versions kagent supports, for CI and the bench: Node's own
// binaries as published on the npm registry (node-<platform>-<arch>@<major>),
// installed once into a cache dir and reused. Prints one line per Node,
// "<major> <path to node>", this machine's Node first.
//
//   node scripts/nodes.mjs            install what is missing, then list
//   node scripts/nodes.mjs --list     list only what is already installed
//
// KAGENT_NODES_DIR sets the cache dir (default: $XDG_CACHE_HOME/kagent-ci/nodes,
// or ~/.cache/kagent-ci/nodes).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The majors CI and the bench run besides this machine's Node. */
export const MAJORS = [22, 24, 26];

export function nodesDir(env = process.env) {
  if (env.KAGENT_NODES_DIR) return env.KAGENT_NODES_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kagent-ci', 'nodes');
}

const packageName = () => `node-${process.platform}-${process.arch}`;

function nodePath(dir, major) {
  return join(dir, `node-${major}`, 'node_modules', packageName(), 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
}

/** Node's version as it says it, or undefined when the binary does not run. */
function versionOf(path) {
  const run = spawnSync(path, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** [{ major, version, path }] for this machine's Node and each of MAJORS installed (installing the missing ones unless `install` is false). */
export function nodes({ install = true, env = process.env, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const dir = nodesDir(env);
  const found = [{ major: Number(process.versions.node.split('.')[0]), version: process.version, path: process.execPath }];
  for (const major of MAJORS) {
    if (major === found[0].major) continue;
    const path = nodePath(dir, major);
    let version = existsSync(path) ? versionOf(path) : undefined;
    if (!version && install) {
      log(`installing Node ${major} (${packageName()}@${major}) into ${join(dir, `node-${major}`)}`);
      mkdirSync(join(dir, `node-${major}`), { recursive: true });
      const npm = spawnSync('npm', ['install', '--prefix', join(dir, `node-${major}`), '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `${packageName()}@${major}`], {
        stdio: ['ignore', 'ignore', 'inherit'],
        shell: process.platform === 'win32',
      });
      version = npm.status === 0 && existsSync(path) ? versionOf(path) : undefined;
      if (!version) throw new Error(`could not install Node ${major} from the registry (${packageName()}@${major})`);
    }
    if (version) found.push({ major, version, path });
  }
  return found;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    for (const node of nodes({ install: !process.argv.includes('--list') })) console.log(`${node.major} ${node.path}`);
  } catch (error) {
    console.error(`nodes: ${error.message}`);
    process.exit(1);
  }
}
