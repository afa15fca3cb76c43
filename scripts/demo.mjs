// `npm run demo`: a short, real tour of kagent against the embedded sandbox.
// It starts the sandbox in this process (clock at 60× so a watch's set-up,
// about a minute of service time, takes a second), points kagent at it through
// the environment and a throwaway config dir, and runs the built binary for
// each step so what you see is exactly what a user sees.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = await import(join(root, 'dist/sandbox.js'));

const work = mkdtempSync(join(tmpdir(), 'kagent-demo-'));
const sandbox = await startSandbox({ port: 0, speed: 60, quiet: true, rateLimit: 600 });
const env = {
  ...process.env,
  KAGENT_CONFIG_DIR: join(work, 'config'),
  KAGENT_CACHE_DIR: join(work, 'cache'),
  KAGENT_BASE_URL: sandbox.baseUrl,
  KAGENT_API_KEY: sandbox.apiKey,
};
const notes = join(work, 'meeting-notes.md');
writeFileSync(notes, '# Weekly sync\n\n- Ship the upload command\n- Review the brief format\n');
// A project's docs/ folder, kept in step with a space as a CI job would on every push.
const docs = join(work, 'docs');
mkdirSync(join(docs, 'guide'), { recursive: true });
writeFileSync(join(docs, 'README.md'), '# Handbook\n\nHow the team works.\n');
writeFileSync(join(docs, 'guide', 'setup.md'), '# Setup\n\nInstall Node 20 or later.\n');
writeFileSync(join(docs, 'guide', 'release.md'), '# Releases\n\nTag, then publish.\n');
const editDocs = () => {
  writeFileSync(join(docs, 'guide', 'setup.md'), '# Setup\n\nInstall Node 22 or later, then run npm ci.\n');
  unlinkSync(join(docs, 'guide', 'release.md'));
  writeFileSync(join(docs, 'guide', 'faq.md'), '# FAQ\n\nAsk in the team channel.\n');
  console.log('(guide/setup.md changed, guide/release.md removed, guide/faq.md added)');
};

const steps = [
  ['Who am I? Plan, credits and limits', ['me']],
  [
    'Spaces hold watches, library items, docs and conversations',
    ['space', 'create', 'Research', '--icon', '🔬', '--description', 'Papers and notes'],
  ],
  [null, ['space', 'list']],
  ['Find public watches to follow', ['watch', 'search', 'open source']],
  [
    'Create a watch: kagent follows its set-up task, then shows the first brief',
    [
      'watch',
      'create',
      'Open-source AI model releases and benchmarks',
      '--space',
      'Research',
      '--cadence',
      'daily',
      '--visibility',
      'public',
    ],
  ],
  [null, ['watch', 'list']],
  [
    'Save a link and upload a file into the library',
    ['lib', 'save', 'https://example.com/articles/vector-search', '--note', 'read later'],
  ],
  [null, ['lib', 'upload', notes, '--space', 'Research']],
  ['Run the same upload again: nothing is sent twice', ['lib', 'upload', notes, '--space', 'Research']],
  [null, ['lib', 'list']],
  ['Keep a folder in step with a space: the first sync uploads it', ['lib', 'sync', 'docs', '--space', 'Research']],
  [
    'A file changes, one is removed, one is added: the re-sync replaces, deletes and uploads only those',
    ['lib', 'sync', 'docs', '--space', 'Research', '--dry-run', '--delete'],
    editDocs,
  ],
  [null, ['lib', 'sync', 'docs', '--space', 'Research', '--delete', '--yes']],
  ['Background tasks', ['task', 'list', '--limit', '5']],
  ['Scripts get JSON, filtered with real jq', ['me', '--jq', '.credits.total']],
];

let failed = 0;
try {
  console.log(`kagent demo — sandbox at ${sandbox.baseUrl} (clock ×60)\n`);
  for (const [title, args, before] of steps) {
    if (title) console.log(`\n# ${title}`);
    before?.();
    console.log(`$ kagent ${args.map(quote).join(' ')}`);
    const status = await run(args);
    if (status !== 0) {
      failed++;
      console.log(`(exit ${status})`);
    }
  }
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
// The binary just run, as the user can run it too (`kagent` once `npm link` or a global install put it on PATH).
const binary = './bin/kagent.js';
console.log(
  failed === 0
    ? `\nThat was kagent. Try it yourself: \`${binary} sandbox\` in one terminal, \`${binary} -p sandbox me\` in another (or \`kagent …\` after \`npm link\`).`
    : `\n${failed} step(s) failed.`,
);
process.exitCode = failed === 0 ? 0 : 1;

/** Runs the built binary; asynchronously, because the sandbox answering it lives in this process. */
function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin/kagent.js'), ...args], { cwd: work, env, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}
