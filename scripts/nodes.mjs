#!/usr/bin/env node
// The other Node versions kagent runs on (or must refuse), for CI, the tests and
// the bench: Node's own binaries as published on the npm registry
// (node-<platform>-<arch>@<major or version>), installed once into a cache dir
// and reused.
//
//   node scripts/nodes.mjs                  install what is missing of MAJORS, then list
//                                           them, "<major> <path to node>" a line,
//                                           this machine's Node first
//   node scripts/nodes.mjs --list           list only what is already installed
//   node scripts/nodes.mjs --version 18 --version 20.19.6
//                                           install each Node named (a major, or an
//                                           exact version) if missing; print
//                                           "<as named> <path to node>" for each
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

/** A Node to install: a major ("18") or an exact version ("20.19.6"). */
function checkSpec(spec) {
  const text = String(spec).replace(/^v/, '');
  if (!/^\d+(\.\d+\.\d+)?$/.test(text))
    throw new Error(`a Node to install is a major (18) or an exact version (20.19.6), not "${spec}"`);
  return text;
}

function nodePath(dir, spec) {
  return join(
    dir,
    `node-${spec}`,
    'node_modules',
    packageName(),
    'bin',
    process.platform === 'win32' ? 'node.exe' : 'node',
  );
}

/** Node's version as it says it, or undefined when the binary does not run. */
function versionOf(path) {
  const run = spawnSync(path, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** Whether `version` ("v20.19.6") is the Node `spec` names. */
const isSpec = (version, spec) => (spec.includes('.') ? version === `v${spec}` : version.startsWith(`v${spec}.`));

const defaultLog = (line) => process.stderr.write(`${line}\n`);

/**
 * Node `spec` (a major, "18", or an exact version, "20.19.6") from the cache dir,
 * installed from the registry first when it is not there (unless `install` is
 * false). Returns { version, path }, or undefined when it is not installed and
 * `install` is false; throws when the install fails.
 */
export function installNode(spec, { install = true, env = process.env, log = defaultLog } = {}) {
  const wanted = checkSpec(spec);
  const dir = nodesDir(env);
  const path = nodePath(dir, wanted);
  let version = existsSync(path) ? versionOf(path) : undefined;
  if (version && !isSpec(version, wanted)) version = undefined;
  if (!version && install) {
    const prefix = join(dir, `node-${wanted}`);
    log(`installing Node ${wanted} (${packageName()}@${wanted}) into ${prefix}`);
    mkdirSync(prefix, { recursive: true });
    const npm = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `${packageName()}@${wanted}`,
      ],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        shell: process.platform === 'win32',
      },
    );
    version = npm.status === 0 && existsSync(path) ? versionOf(path) : undefined;
    if (!version || !isSpec(version, wanted))
      throw new Error(
        `could not install Node ${wanted} from the registry (${packageName()}@${wanted})${version ? `: got ${version}` : ''}`,
      );
  }
  return version ? { version, path } : undefined;
}

/** [{ major, version, path }] for this machine's Node and each of MAJORS installed (installing the missing ones unless `install` is false). */
export function nodes({ install = true, env = process.env, log = defaultLog } = {}) {
  const found = [
    { major: Number(process.versions.node.split('.')[0]), version: process.version, path: process.execPath },
  ];
  for (const major of MAJORS) {
    if (major === found[0].major) continue;
    const node = installNode(String(major), { install, env, log });
    if (node) found.push({ major, ...node });
  }
  return found;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const args = process.argv.slice(2);
    const specs = args.flatMap((arg, i) => {
      if (arg === '--version') return [args[i + 1]];
      return arg.startsWith('--version=') ? [arg.slice('--version='.length)] : [];
    });
    if (specs.length > 0) {
      for (const spec of specs) {
        if (spec === undefined) throw new Error('--version needs a Node: a major (18) or an exact version (20.19.6)');
        console.log(`${spec} ${installNode(spec).path}`);
      }
    } else {
      for (const node of nodes({ install: !args.includes('--list') })) console.log(`${node.major} ${node.path}`);
    }
  } catch (error) {
    console.error(`nodes: ${error.message}`);
    process.exit(1);
  }
}
