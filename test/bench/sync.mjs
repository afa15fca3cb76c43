// `kagent lib sync` of an unchanged folder of 1,000 files (a CI job on a push
// that touched no doc), against the sandbox in this process:
//   - it sends only listing requests (GET /spaces for the space's id, GET /library
//     page by page): checked in the sandbox's request counts;
//   - its wall time is within 1.2× of "the time of those listing requests".
//
// What that time is measured as: the same listing requests made by kagent's own
// client, in one fresh process, start-up included — `kagent lib list --space S
// --kind file --all --json` sends exactly GET /spaces and the same pages of 200
// (see the request counts printed). That is the honest floor for a sync: any
// kagent command that reads the listing pays kagent's start-up and HTTP client,
// so what the target judges is what sync adds beyond reading the listing (the
// folder walk, the files' digests, the plan, the output). A bare node:http
// process sending the same requests is timed too, for scale only (it has no
// start-up of its own to pay). Every command is a fresh process, timed in
// alternating rounds; medians are reported. PASS when the no-op sync's median is
// at most 1.2× the listing's; exit 1 on FAIL.
// The first sync (1,000 uploads) is the set-up, not measured.
//
// Run alone:      node test/bench/sync.mjs        (after `npm run build`)
// From run.mjs:   const { benchSync } = await import('./sync.mjs'); failed += await benchSync();
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { admin, benchAccount, bin, startBenchSandbox, writeFolder } from './lib-account.mjs';
import { runOnce, timeInRotation } from './timing.mjs';
const FILES = Number(process.env.BENCH_SYNC_FILES ?? 1000);
const RUNS = Number(process.env.BENCH_SYNC_RUNS ?? 11);
const TARGET = 1.2;

/** For scale: the listing requests of a no-op sync, by a bare Node process: the space's id, then every page of the space's files. */
const LISTING = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true });
const [base, key, name] = process.argv.slice(1);
const get = (path) => new Promise((resolve, reject) => {
  http.get(base + path, { agent, headers: { authorization: 'Bearer ' + key, accept: 'application/json' } }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c) => (text += c));
    res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(res.statusCode + ' ' + text))));
  }).on('error', reject);
});
(async () => {
  const space = (await get('/spaces')).items.find((s) => s.name === name).id;
  let cursor = '';
  let n = 0;
  do {
    const page = await get('/library?space=' + space + '&kind=file&limit=200' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''));
    n += page.items.length;
    cursor = page.nextCursor || '';
  } while (cursor);
  agent.destroy();
  process.stdout.write(n + ' items\\n');
})().catch((e) => { console.error(e.message); process.exit(1); });
`;

export async function benchSync() {
  console.log(`\nlib sync, no-op re-sync of ${FILES} files (Node ${process.version})`);
  const sandbox = await startBenchSandbox();
  const work = mkdtempSync(join(tmpdir(), 'kagent-bench-sync-'));
  try {
    const dir = writeFolder(join(work, 'docs'), FILES, {
      folders: 10,
      text: (i) => `# Page ${i}\n\n${'Some documentation text. '.repeat(20)}${i}\n`,
    });
    const { apiKey, env } = await benchAccount(sandbox, work, { space: 'Handbook' });
    const syncArgv = [process.execPath, bin, 'lib', 'sync', dir, '--space', 'Handbook', '--concurrency', '8'];

    const first = await runOnce(syncArgv, env);
    if (first.code !== 0) throw new Error(`the first sync failed (exit ${first.code}): ${first.stderr.slice(0, 300)}`);

    // What a no-op re-sync sends.
    await admin(sandbox, 'DELETE', '/_sandbox/stats');
    const probe = await runOnce(syncArgv, env);
    const { requests } = await admin(sandbox, 'GET', '/_sandbox/stats');
    const expected = new RegExp(`^0 uploaded, 0 replaced, 0 deleted, ${FILES} unchanged, 0 failed`, 'm');
    const onlyListing = Object.keys(requests).every((op) => op === 'listLibrary' || op === 'listSpaces');
    const sent = Object.entries(requests)
      .map(([op, n]) => `${op} ${n}`)
      .join(', ');

    // The listing requests by kagent itself, counted the same way.
    await admin(sandbox, 'DELETE', '/_sandbox/stats');
    const listArgv = [process.execPath, bin, 'lib', 'list', '--space', 'Handbook', '--kind', 'file', '--all', '--json'];
    const listProbe = await runOnce(listArgv, env);
    const listSent = Object.entries((await admin(sandbox, 'GET', '/_sandbox/stats')).requests)
      .map(([op, n]) => `${op} ${n}`)
      .join(', ');
    const sameRequests = listProbe.code === 0 && listSent === sent;

    const [listing, sync, bare] = await timeInRotation(
      [
        { name: 'the listing requests (kagent lib list --all --json)', argv: listArgv, env },
        { name: `kagent lib sync (${FILES} files, no-op)`, argv: syncArgv, env },
        {
          name: 'for scale: the same requests by bare node:http',
          argv: [process.execPath, '-e', LISTING, sandbox.baseUrl, apiKey, 'Handbook'],
        },
      ],
      { runs: RUNS, warmup: 1 },
    );
    const ok = probe.code === 0 && expected.test(probe.stderr) && onlyListing && sameRequests && sync.ratio <= TARGET;
    const load = loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    console.log(
      `  requests of a no-op re-sync: ${sent} ${onlyListing ? '(listing only)' : '(NOT listing only)'}; of lib list --all --json: ${listSent}${sameRequests ? '' : ' (NOT the same)'}`,
    );
    console.log(`  ${listing.name.padEnd(52)} ${listing.median.toFixed(0).padStart(6)} ms`);
    console.log(
      `  ${sync.name.padEnd(52)} ${sync.median.toFixed(0).padStart(6)} ms  ${sync.ratio.toFixed(3)}× (target ≤${TARGET}×)`,
    );
    console.log(
      `  ${bare.name.padEnd(52)} ${bare.median.toFixed(0).padStart(6)} ms  (sync is ${(sync.median / bare.median).toFixed(2)}× of it)`,
    );
    console.log(`  medians of ${RUNS} alternating rounds; load average ${load}`);
    if (!expected.test(probe.stderr)) console.log(`  unexpected outcome: ${probe.stderr.trim().split('\n').pop()}`);
    console.log(
      `  ${ok ? 'PASS' : 'FAIL'}  no-op lib sync of ${FILES} files: ${sync.ratio.toFixed(3)}× the listing requests (target ≤${TARGET}×)`,
    );
    return ok ? 0 : 1;
  } finally {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const failed = await benchSync();
  process.exitCode = failed > 0 ? 1 : 0;
}
