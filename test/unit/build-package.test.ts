// The build's package steps (scripts/build-package.mjs): a stand-in that no
// longer matches its dependency stops the build with a message naming it; the
// build date; which package a bundled file belongs to.
import { build } from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build, without types
import { buildDate, packageDirOf, StandIns } from '../../scripts/build-package.mjs';

/** A plugin like the build's: replaces `node:<name>` imported by the bundled file, and says so. */
function stubbing(standIns: { apply(key: string): void }, names: string[]) {
  return {
    name: 'stub',
    setup(b: import('esbuild').PluginBuild) {
      b.onResolve({ filter: /^node:/ }, (args) => {
        const name = args.path.slice(5);
        if (!names.includes(name)) return undefined;
        standIns.apply(`fixture ${args.path}`);
        return { path: name, namespace: 'stub' };
      });
      b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
    },
  };
}

async function bundle(source: string, standIns: { apply(key: string): void }, names: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'kagent-stand-ins-'));
  writeFileSync(join(dir, 'entry.js'), source);
  await build({ entryPoints: [join(dir, 'entry.js')], bundle: true, write: false, platform: 'node', format: 'esm', logLevel: 'silent', plugins: [stubbing(standIns, names)] });
}

describe('stand-ins', () => {
  it('pass when every expected replacement applied', async () => {
    const standIns = new StandIns(['fixture node:assert', 'fixture node:http']);
    await bundle("import 'node:assert'; import 'node:http';", standIns, ['assert', 'http']);
    expect(() => standIns.check('fixture')).not.toThrow();
  });

  it('stop the build, naming each one that did not match, when the dependency no longer imports it', async () => {
    const standIns = new StandIns(['fixture node:assert', 'fixture node:http', 'fixture node:child_process']);
    await bundle("import 'node:assert';", standIns, ['assert', 'http', 'child_process']);
    expect(() => standIns.check('dist/')).toThrow(/build \(dist\/\): these stand-ins did not match anything: fixture node:http, fixture node:child_process\./);
  });

  it('refuse a replacement nobody expected', () => {
    const standIns = new StandIns(['undici node:assert']);
    expect(() => standIns.apply('undici node:net')).toThrow(/stand-in "undici node:net" applied but not expected/);
  });
});

describe('build date', () => {
  it('is today (UTC), or the day SOURCE_DATE_EPOCH names', () => {
    expect(buildDate({})).toBe(new Date().toISOString().slice(0, 10));
    expect(buildDate({ SOURCE_DATE_EPOCH: '1764028800' })).toBe('2025-11-25');
  });

  it('refuses a SOURCE_DATE_EPOCH that is not whole seconds', () => {
    expect(() => buildDate({ SOURCE_DATE_EPOCH: '2025-11-25' })).toThrow(/SOURCE_DATE_EPOCH must be whole seconds/);
  });
});

describe('packageDirOf', () => {
  it('finds the innermost package of a bundled file, scoped or not', () => {
    expect(packageDirOf('node_modules/undici/lib/api/api-request.js')).toBe('node_modules/undici');
    expect(packageDirOf('node_modules/ora/node_modules/@scope/pkg/x/y.js')).toBe('node_modules/ora/node_modules/@scope/pkg');
    expect(packageDirOf('src/cli.ts')).toBeUndefined();
  });
});
