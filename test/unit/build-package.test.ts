// The build's package steps (scripts/build-package.mjs): the build date; which package a bundled file belongs to; the third-party notices.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build, without types
import { buildDate, packageDirOf, writeNotices } from '../../scripts/build-package.mjs';
import { root } from '../helpers/binary.js';

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
    expect(packageDirOf('node_modules/ora/node_modules/@scope/pkg/x/y.js')).toBe(
      'node_modules/ora/node_modules/@scope/pkg',
    );
    expect(packageDirOf('src/main.ts')).toBeUndefined();
  });
});

interface Notices {
  bundled: Array<{ name: string; version: string; licence: string; files: Array<{ name: string; text: string }> }>;
  embedded: Array<{ name: string; licence: string; in: string; text: string }>;
}

/** writeNotices into a new folder: what it returned, and the file it wrote. */
function notices(
  metafiles: Array<{ inputs: Record<string, unknown> }>,
  options?: { dependencies: Record<string, string> },
): Notices & { file: string } {
  const out = mkdtempSync(join(tmpdir(), 'kagent-notices-'));
  const written = writeNotices(metafiles, out, options) as Notices;
  return { ...written, file: readFileSync(join(out, 'THIRD-PARTY-NOTICES.md'), 'utf8') };
}

describe('third-party notices', () => {
  it('hold a licence text for every package in the metafile of a bundle of kagent', async () => {
    const { metafile } = await build({
      entryPoints: [join(root, 'src', 'main.ts'), join(root, 'src', 'sandbox', 'index.ts')],
      bundle: true,
      splitting: true,
      outdir: join(tmpdir(), 'kagent-notices-bundle'),
      write: false,
      format: 'esm',
      platform: 'node',
      external: ['unpdf', 'unpdf/*', 'jq-wasm'],
      metafile: true,
      logLevel: 'silent',
    });
    const packages = new Set(
      Object.keys(metafile.inputs)
        .map((input) => packageDirOf(input))
        .filter(Boolean),
    );
    expect(packages.size).toBeGreaterThan(50);
    const { bundled } = notices([metafile]);
    expect(bundled.length).toBeGreaterThan(50);
    for (const dir of packages) {
      const { name, version } = JSON.parse(readFileSync(join(root, dir as string, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      const pkg = bundled.find((entry) => entry.name === name && entry.version === version);
      expect(pkg, `${name} ${version}`).toBeDefined();
      expect(pkg?.files.length, `${name} ${version}`).toBeGreaterThan(0);
      for (const file of pkg?.files ?? [])
        expect(file.text.trim().length, `${name} ${version}: ${file.name}`).toBeGreaterThan(100);
    }
  }, 60_000);

  it('isarray, which ships no licence file, gets the MIT text of its README with its copyright holder', () => {
    const { bundled, file } = notices([{ inputs: { 'node_modules/isarray/index.js': {} } }], { dependencies: {} });
    expect(bundled).toHaveLength(1);
    expect(bundled[0]?.files).toHaveLength(1);
    const text = bundled[0]?.files[0]?.text;
    expect(text).toMatch(
      /^\(MIT\)\n\nCopyright \(c\) 2013 Julian Gruber <julian@juliangruber\.com>\n\nPermission is hereby granted, free of charge,/,
    );
    expect(text).toMatch(/OTHER DEALINGS IN THE\nSOFTWARE\.$/);
    expect(file).toContain(
      '## isarray 1.0.0\n\nLicence: MIT\n\n### README.md (its licence section; the package ships no licence file)\n\n```\n(MIT)\n\nCopyright (c) 2013 Julian Gruber',
    );
  });

  it('a package with no licence text anywhere stops the build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kagent-unlicensed-'));
    mkdirSync(join(dir, 'node_modules', 'mute'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'mute', 'package.json'), '{"name":"mute","version":"1.0.0"}');
    writeFileSync(join(dir, 'node_modules', 'mute', 'README.md'), '# mute\n\nDoes nothing.\n');
    expect(() =>
      notices([{ inputs: { [join(dir, 'node_modules', 'mute', 'index.js')]: {} } }], { dependencies: {} }),
    ).toThrow(/mute is bundled into dist\/ but has no licence text/);
  });

  it('name what the runtime dependencies embed, PDF.js in unpdf and jq in jq-wasm, with their licences', () => {
    const { embedded, file } = notices([], { dependencies: { 'jq-wasm': '*', unpdf: '*' } });
    expect(embedded.map((part) => `${part.name} ${part.licence} ${part.in.split(' ')[0]}`)).toEqual([
      'jq MIT jq-wasm',
      'PDF.js Apache-2.0 unpdf',
    ]);
    const jq = embedded[0]?.text ?? '';
    expect(jq).toMatch(/^MIT License\n\nCopyright \(C\) 2012 Stephen Dolan\n\nPermission is hereby granted/);
    const pdfjs = embedded[1]?.text ?? '';
    expect(pdfjs).toMatch(/^Copyright 2012 Mozilla Foundation\n\nApache License\nVersion 2\.0, January 2004\n/);
    expect(pdfjs.length).toBeGreaterThan(10_000);
    expect(file).toMatch(/^- PDF\.js \(Apache-2\.0\), inside unpdf \d+\.\d+\.\d+$/m);
    expect(file).toMatch(/^## jq, inside jq-wasm \d+\.\d+\.\d+\n\nLicence: MIT\n/m);
  });

  it('a runtime dependency nobody said anything about stops the build', () => {
    expect(() => notices([], { dependencies: { unpdf: '*', 'left-pad': '*' } })).toThrow(
      /say what the runtime dependency left-pad embed/,
    );
  });
});
