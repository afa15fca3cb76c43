// The build's package steps (scripts/build.mjs calls them; each is one function):
// - buildDate(): the day `kagent --version` and the man pages name;
// - writeNotices(): the licence of every package bundled into dist/, and of what the runtime
//   dependencies embed, in dist/THIRD-PARTY-NOTICES.md;
// - writeManPages(): man pages from the command tree, in dist/man/.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** YYYY-MM-DD (UTC) of this build; SOURCE_DATE_EPOCH (seconds) fixes it for reproducible builds. */
export function buildDate(env = process.env) {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== '' && !/^\d+$/.test(epoch))
    throw new Error(`SOURCE_DATE_EPOCH must be whole seconds, got "${epoch}"`);
  return new Date(epoch ? Number(epoch) * 1000 : Date.now()).toISOString().slice(0, 10);
}

/** The package a bundled input belongs to: `node_modules/a/node_modules/@b/c/x.js` → its folder, `…/@b/c`. */
export function packageDirOf(input) {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0]?.startsWith('@') ? rest.slice(0, 2).join('/') : rest[0];
  return name ? `${input.slice(0, at)}node_modules/${name}` : undefined;
}

const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.|-|$)/i;

/** The standard text of an SPDX licence (spdx-license-list), its copyright line filled in when it has one to fill. */
export function standardLicence(id, copyright) {
  const path = join(root, 'node_modules', 'spdx-license-list', 'licenses', `${id}.json`);
  let text;
  try {
    text = JSON.parse(readFileSync(path, 'utf8')).licenseText;
  } catch {
    return undefined;
  }
  const template = /^Copyright \(c\) <year> <copyright holders>$/m;
  return (template.test(text) ? text.replace(template, copyright) : `${copyright}\n\n${text}`).trim();
}

/** The licence section of a README (a "License" or "Licence" heading to the next heading), when it holds a licence text. */
export function readmeLicence(readme) {
  const match = /^(#{1,6})\s*Licen[cs]e\b[^\n]*\n([\s\S]*?)(?=^#{1,6}\s|(?![\s\S]))/im.exec(readme);
  const text = match?.[2]?.trim().replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return text && /copyright/i.test(text) && /permission|licensed|redistribut/i.test(text) && text.length >= 200
    ? text
    : undefined;
}

/**
 * What the runtime dependencies (installed beside kagent with their own licence
 * files, not bundled) carry inside them from other projects, under licences of
 * their own: named in kagent's notices too, with those licences. Every runtime
 * dependency is listed (an empty list: it embeds nothing), so a new one is looked at.
 */
export const EMBEDDED = {
  unpdf: [
    {
      name: 'PDF.js',
      how: 'a build of it, as unpdf/pdfjs',
      url: 'https://github.com/mozilla/pdf.js',
      licence: 'Apache-2.0',
      copyright: 'Copyright 2012 Mozilla Foundation',
    },
  ],
  'jq-wasm': [
    {
      name: 'jq',
      how: 'compiled to WebAssembly',
      url: 'https://github.com/jqlang/jq',
      licence: 'MIT',
      copyright: 'Copyright (C) 2012 Stephen Dolan',
    },
  ],
};

/** The licence texts of a package: its licence and notice files, else its README's licence section, else the standard text of what it declares with its author as the holder. */
function licenceTexts(abs, pkg, licence) {
  const files = readdirSync(abs)
    .filter((name) => LICENCE_FILE.test(name))
    .sort();
  if (files.length > 0) return files.map((name) => ({ name, text: readFileSync(join(abs, name), 'utf8').trim() }));
  const readme = readdirSync(abs).find((name) => /^readme(\.|$)/i.test(name));
  const fromReadme = readme ? readmeLicence(readFileSync(join(abs, readme), 'utf8')) : undefined;
  if (fromReadme)
    return [{ name: `${readme} (its licence section; the package ships no licence file)`, text: fromReadme }];
  const author = typeof pkg.author === 'string' ? pkg.author.replace(/\s*[<(].*$/, '') : pkg.author?.name;
  const standard = licence && author ? standardLicence(licence, `Copyright (c) ${author}`) : undefined;
  if (standard)
    return [
      {
        name: `${licence} (the standard text, with the author its package.json names; the package ships no licence file)`,
        text: standard,
      },
    ];
  return [];
}

// The licence a package.json declares: "license" as a string or {type}, or the old "licenses" list.
function declaredLicence(pkg) {
  if (typeof pkg.license === 'string') return pkg.license;
  return pkg.license?.type ?? (Array.isArray(pkg.licenses) ? pkg.licenses.map((l) => l.type).join(' OR ') : undefined);
}

function byNameThenVersion(a, b) {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.version < b.version ? -1 : 1;
}

/**
 * dist/THIRD-PARTY-NOTICES.md: for every package with code in the bundle (from
 * esbuild's metafiles), its name, version, declared licence and the text of its
 * licence (see licenceTexts); then what the runtime dependencies embed (EMBEDDED).
 * A bundled package without a licence text stops the build.
 * @param {Array<{inputs: Record<string, unknown>}>} metafiles
 */
export function writeNotices(
  metafiles,
  outDir,
  { dependencies = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies ?? {} } = {},
) {
  const dirs = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const dir = packageDirOf(input.replace(/\\/g, '/'));
      if (dir) dirs.add(dir);
    }
  }
  const packages = [...dirs]
    .map((dir) => {
      const abs = resolve(root, dir);
      const pkg = JSON.parse(readFileSync(join(abs, 'package.json'), 'utf8'));
      const licence = declaredLicence(pkg);
      const files = licenceTexts(abs, pkg, licence);
      if (files.length === 0)
        throw new Error(
          `build: ${pkg.name} is bundled into dist/ but has no licence text (no licence file, none in its README, no declared licence and author)`,
        );
      return { name: pkg.name, version: pkg.version, licence: licence ?? 'see below', files };
    })
    .sort(byNameThenVersion);
  // The same name and version reached through two paths is one package.
  const unique = packages.filter(
    (pkg, i) => i === 0 || pkg.name !== packages[i - 1].name || pkg.version !== packages[i - 1].version,
  );
  const unlisted = Object.keys(dependencies).filter((name) => !EMBEDDED[name]);
  if (unlisted.length > 0)
    throw new Error(
      `build: say what the runtime ${unlisted.length === 1 ? 'dependency' : 'dependencies'} ${unlisted.join(', ')} embed (EMBEDDED in scripts/build-package.mjs; [] for nothing)`,
    );
  const embedded = Object.keys(dependencies)
    .sort()
    .flatMap((dependency) => {
      const { version } = JSON.parse(readFileSync(join(root, 'node_modules', dependency, 'package.json'), 'utf8'));
      return EMBEDDED[dependency].map((part) => {
        const text = standardLicence(part.licence, part.copyright);
        if (!text)
          throw new Error(`build: no standard text of ${part.licence} (for ${part.name} inside ${dependency})`);
        return { ...part, in: `${dependency} ${version}`, text };
      });
    });
  const parts = [
    '# Third-party notices',
    '',
    `kagent's dist/ bundles code from the ${unique.length} packages below. Each is listed with its version, the licence its`,
    'package.json declares, and the licence and notice files it ships, as they were when this build was made.',
    '',
    ...unique.map((pkg) => `- ${pkg.name} ${pkg.version} (${pkg.licence})`),
  ];
  if (embedded.length > 0) {
    parts.push(
      '',
      "kagent's runtime dependencies are installed beside it, each with its own licence files. Inside them is code of",
      'other projects, under licences of their own, given at the end:',
      '',
      ...embedded.map((part) => `- ${part.name} (${part.licence}), inside ${part.in}`),
    );
  }
  for (const pkg of unique) {
    parts.push('', '---', '', `## ${pkg.name} ${pkg.version}`, '', `Licence: ${pkg.licence}`);
    for (const file of pkg.files)
      parts.push('', `### ${file.name}`, '', '```', file.text.replace(/```/g, '` ` `'), '```');
  }
  for (const part of embedded) {
    parts.push(
      '',
      '---',
      '',
      `## ${part.name}, inside ${part.in}`,
      '',
      `Licence: ${part.licence}`,
      '',
      `${part.name} (${part.url}), ${part.how}.`,
      '',
      `### ${part.licence}`,
      '',
      '```',
      part.text,
      '```',
    );
  }
  writeFileSync(join(outDir, 'THIRD-PARTY-NOTICES.md'), `${parts.join('\n')}\n`);
  return { bundled: unique, embedded };
}

/**
 * dist/man/*.1 from the command tree (src/cli/manpages.ts), bundled on its own into a
 * temporary file and run here; the main bundle is not touched by it.
 * @returns {Promise<string[]>} the files written
 */
export async function writeManPages(outDir, meta, options) {
  const temp = mkdtempSync(join(tmpdir(), 'kagent-man-'));
  try {
    const entry = join(temp, 'manpages.mjs');
    await build({
      ...options,
      entryPoints: [join(root, 'src', 'cli', 'manpages.ts')],
      outfile: entry,
      bundle: true,
      splitting: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
    });
    const { manPages } = await import(pathToFileURL(entry).href);
    const pages = await manPages(meta);
    const dir = join(outDir, 'man');
    mkdirSync(dir, { recursive: true });
    for (const page of pages) writeFileSync(join(dir, page.file), page.text);
    return pages.map((page) => page.file);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
