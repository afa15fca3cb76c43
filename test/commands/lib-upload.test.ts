// `kagent lib upload` against the sandbox, in-process: discovery (files,
// folders, globs, stdin), refusals that send no request, content-derived
// idempotency keys (a rerun adds nothing), faults survived without
// duplicates, per-file 402/413/415 with their codes, output in every mode,
// --fail-fast and exit codes.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xmllint } from '../helpers/junit.js';
import { makeDocx, makePdf, makePng, makeZip } from '../helpers/files.js';
import { accountId, dirs, kagent, key, resetStats, s, useLibSandbox, scratchFolder } from '../helpers/lib-sandbox.js';
import { hasForeignEscapes, runCli, tempDir } from '../helpers/run.js';
import { unwrap } from '../helpers/binary.js';
import { tinyServer } from '../helpers/tiny-server.js';
import { writeProfile } from '../../src/config/store.js';
import { SAMPLE_BLOCK_BYTES, SAMPLED_MIN_BYTES, formatBytes, sampleOffsets } from '../../src/upload/prepare.js';
import { uploadKey } from '../../src/upload/key.js';
import { LIMIT_ASKED_FROM } from '../../src/upload/uploader.js';
import { FIELDS } from '../../src/upload/lines.js';
import { abortableSleep } from '../../src/http/clock.js';

useLibSandbox();

async function stats(): Promise<{
  requests: Record<string, number>;
  executions: Record<string, number>;
  statuses: Record<string, number>;
}> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body;
}
async function files(): Promise<any[]> {
  return (await s.t.call('GET', '/library', { key, query: { kind: 'file', limit: 200 } })).body.items;
}
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A PDF just over the size from which a file that is not text is keyed by samples of its bytes. */
const largePdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(SAMPLED_MIN_BYTES + 1024 * 1024)]);

/** A folder of files: name → content. */
const folder = (content: Record<string, Buffer | string>) => scratchFolder('kagent-upload-', content, '');

function rows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
}

function ndjson(stdout: string): any[] {
  return stdout
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const DOCS = {
  'report.pdf': makePdf(['Harbour expansion report', 'Costs are within the budget.']),
  'minutes.docx': makeDocx(['Minutes of the board meeting.', 'The harbour expansion was approved.']),
  'notes/plan.md': '# Plan\n\nFinish the harbour survey by May.\n',
  'notes/todo.txt': 'call the surveyor\n',
  'images/map.png': makePng(64, 48),
  '.git/config': '[core]\n',
  'notes/.draft.md': '# hidden draft\n',
};

describe('lib upload: discovery and the first run', () => {
  it('uploads files, folders (recursively, hidden ones skipped) and globs; piped: one row per file; a summary on stderr', async () => {
    const dir = folder(DOCS);
    const r = await kagent([
      'lib',
      'upload',
      join(dir, 'report.pdf'),
      join(dir, 'notes'),
      `${dir}/images/*.png`,
      join(dir, 'minutes.docx'),
    ]);
    expect(r.stderr).toMatch(/^5 uploaded, 0 already there, 0 failed/m);
    expect(r.code).toBe(0);
    const out = rows(r.stdout);
    expect(out.map((row) => [row[0], row[1]]).sort()).toEqual(
      [
        ['uploaded', join(dir, 'report.pdf')],
        ['uploaded', join(dir, 'notes/plan.md')],
        ['uploaded', join(dir, 'notes/todo.txt')],
        ['uploaded', join(dir, 'images/map.png')],
        ['uploaded', join(dir, 'minutes.docx')],
      ].sort(),
    );
    expect(out.every((row) => /^li_/.test(row[2] ?? '') && row[3] === '')).toBe(true);
    // Sent with the bytes' hash, nothing twice: one request and one execution per file (small files:
    // no GET /me for the plan's per-file limit).
    const st = await stats();
    expect(st.requests).toEqual({ uploadFile: 5 });
    expect(st.executions.uploadFile).toBe(5);
    const stored = await files();
    expect(stored.map((f) => f.fileName).sort()).toEqual([
      'map.png',
      'minutes.docx',
      'plan.md',
      'report.pdf',
      'todo.txt',
    ]);
    expect(Object.fromEntries(stored.map((f) => [f.fileName, f.mime]))).toMatchObject({
      'report.pdf': 'application/pdf',
      'plan.md': 'text/markdown',
      'todo.txt': 'text/plain',
      'map.png': 'image/png',
    });
  });

  it('a folder operand walks everything below it; a file named twice is sent once', async () => {
    const dir = folder(DOCS);
    const r = await kagent(['lib', 'upload', dir, join(dir, 'notes', 'plan.md')]);
    expect(r.code).toBe(0);
    expect(rows(r.stdout)).toHaveLength(5);
    expect((await stats()).requests.uploadFile).toBe(5);
    expect(r.stdout).not.toMatch(/\.git|\.draft/);
  });

  it('glob patterns relative to the working directory, with **', async () => {
    const dir = folder(DOCS);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const r = await kagent(['lib', 'upload', 'notes/**/*.{md,txt}']);
      expect(r.code).toBe(0);
      expect(
        rows(r.stdout)
          .map((row) => row[1])
          .sort(),
      ).toEqual(['notes/plan.md', 'notes/todo.txt']);
    } finally {
      process.chdir(cwd);
    }
  });

  it('an operand that matches nothing stops everything before any request (exit 2)', async () => {
    const dir = folder({ 'a.txt': 'hello\n', 'empty/.keep': '' });
    for (const operand of [join(dir, 'missing.pdf'), `${dir}/*.pdf`, join(dir, 'empty')]) {
      const r = await kagent(['lib', 'upload', join(dir, 'a.txt'), operand]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/no such file or folder|no files match|no files in folder/);
    }
    expect((await stats()).requests).toEqual({});
  });
});

describe('lib upload: a rerun uploads nothing', () => {
  it('the same command again: every file "exists", no work done by the service, the library unchanged', async () => {
    const dir = folder(DOCS);
    const first = await kagent(['lib', 'upload', dir, '--note', 'nightly']);
    expect(first.code).toBe(0);
    const before = await files();
    expect(before).toHaveLength(5);
    await resetStats();

    const again = await kagent(['lib', 'upload', dir, '--note', 'nightly']);
    expect(again.code).toBe(0);
    expect(rows(again.stdout).map((row) => row[0])).toEqual(['exists', 'exists', 'exists', 'exists', 'exists']);
    expect(again.stderr).toMatch(/^0 uploaded, 5 already there, 0 failed/m);
    const st = await stats();
    expect(st.requests.uploadFile).toBe(5);
    // Answered from the idempotency cache: the upload handler never ran.
    expect(st.executions.uploadFile ?? 0).toBe(0);
    expect(await files()).toEqual(before);
    // The ids reported are those of the first run.
    const ids = (out: string) =>
      rows(out)
        .map((row) => row[2])
        .sort();
    expect(ids(again.stdout)).toEqual(ids(first.stdout));
  });

  it('other options (a different note) make other keys: the service still recognises the bytes (duplicate), nothing is added', async () => {
    const dir = folder({ 'a.md': '# A\n\nalpha\n' });
    expect((await kagent(['lib', 'upload', dir])).code).toBe(0);
    const r = await kagent(['lib', 'upload', dir, '--note', 'other', '--json']);
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout)).toEqual([
      expect.objectContaining({ status: 'exists', item: expect.objectContaining({ fileName: 'a.md' }) }),
    ]);
    expect(await files()).toHaveLength(1);
  });

  it('the same bytes under two names in one run: sent one after the other, added once', async () => {
    const same = '# Same\n\nidentical bytes\n';
    const dir = folder({ 'one.md': same, 'two.md': same });
    const r = await kagent(['lib', 'upload', dir, '--concurrency', '8', '--json']);
    expect(r.code).toBe(0);
    const results = ndjson(r.stdout);
    expect(results.map((x) => x.status).sort()).toEqual(['exists', 'uploaded']);
    expect(results[0].item.id).toBe(results[1].item.id);
    expect(await files()).toHaveLength(1);
  });
});

describe('lib upload: faults', () => {
  it('resets, 503s, cut-off answers and resets after the work: every file ends up present exactly once, reported uploaded', async () => {
    const content: Record<string, string> = {};
    for (let i = 0; i < 8; i++) content[`doc-${i}.md`] = `# Document ${i}\n\n${randomBytes(200).toString('base64')}\n`;
    const dir = folder(content);
    for (const kind of ['reset', '503', 'truncate', 'reset-after', '502', 'truncate']) {
      await s.t.inject({ kind, count: 1, method: 'POST', path: '/api/v1/library/files' });
    }
    const r = await kagent(['lib', 'upload', dir, '--json', '--concurrency', '3']);
    expect(r.stderr).toMatch(/^8 uploaded, 0 already there, 0 failed/m);
    expect(r.code).toBe(0);
    const results = ndjson(r.stdout);
    expect(results.map((x) => x.status)).toEqual(Array(8).fill('uploaded'));
    const stored = await files();
    expect(stored).toHaveLength(8);
    expect(new Set(stored.map((f) => f.sha256))).toEqual(new Set(Object.values(content).map(sha256)));
    const st = await stats();
    // The faults happened and were retried (a fault drawn by a replayed attempt changes nothing)...
    expect(st.statuses['503']).toBe(1);
    expect(st.statuses['502']).toBe(1);
    expect(st.requests.uploadFile).toBeGreaterThanOrEqual(8 + 3);
    // ...and the work was done exactly once per file: the retries after the work carried the same key.
    expect(st.executions.uploadFile).toBe(8);
  });

  it('a service that keeps refusing (429 after every retry): the run stops (exit 7), files not started are "skipped", a rerun finishes the job', async () => {
    const dir = folder({ 'a.md': '# a\n', 'b.md': '# b\n', 'c.md': '# c\n' });
    // Injected 429s carry Retry-After: 1, so the five retries take five seconds, every time.
    await s.t.inject({ kind: '429', count: 6, method: 'POST', path: '/api/v1/library/files' });
    const r = await kagent(['lib', 'upload', dir, '--concurrency', '1', '--json']);
    expect(r.code).toBe(7);
    const results = ndjson(r.stdout);
    expect(results.map((x) => x.status)).toEqual(['failed', 'skipped', 'skipped']);
    expect(results[0].error).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(JSON.parse(r.stderr.trimEnd().split('\n').pop() as string).error.hint).toMatch(/run the same command again/);
    const again = await kagent(['lib', 'upload', dir]);
    expect(again.code).toBe(0);
    expect(await files()).toHaveLength(3);
  });
});

describe('lib upload: the bytes sent', () => {
  it("files of many chunks arrive byte for byte (the service's SHA-256 is the file's); a large one is keyed by samples, and a rerun's replayed answer is checked against its SHA-256", async () => {
    const medium = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(5 * 1024 * 1024 + 12_345)]);
    const large = largePdf();
    await s.t.patchAccount(accountId, { limits: { fileBytes: 200 * 1024 * 1024 } });
    const dir = folder({ 'medium.pdf': medium, 'large.pdf': large });
    const r = await kagent(['lib', 'upload', dir, '--json']);
    expect(r.code).toBe(0);
    const byName = Object.fromEntries(ndjson(r.stdout).map((x) => [x.name, x]));
    expect(byName['medium.pdf']).toMatchObject({ status: 'uploaded', item: { sha256: sha256(medium) } });
    expect(byName['large.pdf']).toMatchObject({ status: 'uploaded', item: { sha256: sha256(large) } });
    // The rerun: both answered from the idempotency cache, nothing sent again or added.
    await resetStats();
    const again = await kagent(['lib', 'upload', dir, '--json']);
    expect(again.code).toBe(0);
    expect(
      ndjson(again.stdout)
        .map((x) => [x.name, x.status, x.item.id])
        .sort(),
    ).toEqual([
      ['large.pdf', 'exists', byName['large.pdf'].item.id],
      ['medium.pdf', 'exists', byName['medium.pdf'].item.id],
    ]);
    expect((await stats()).executions.uploadFile ?? 0).toBe(0);
    expect(await files()).toHaveLength(2);
  });

  it('a large file changed between its samples (same size) is sent again under the key of its SHA-256 and added; the next run finds it', async () => {
    await s.t.patchAccount(accountId, { limits: { fileBytes: 200 * 1024 * 1024 } });
    const original = largePdf();
    const dir = folder({ 'large.pdf': original });
    const first = await kagent(['lib', 'upload', dir, '--json']);
    expect(ndjson(first.stdout)[0]).toMatchObject({ status: 'uploaded', item: { sha256: sha256(original) } });

    // One byte in the middle, which no sample covers: the sampled key stays the same.
    const middle = original.length >> 1;
    expect(sampleOffsets(original.length).some((at) => at <= middle && middle < at + SAMPLE_BLOCK_BYTES)).toBe(false);
    const changed = Buffer.from(original);
    changed[middle] = changed[middle]! ^ 0xff;
    writeFileSync(join(dir, 'large.pdf'), changed);

    await resetStats();
    const second = await kagent(['lib', 'upload', dir, '--json']);
    expect(second.code).toBe(0);
    const [result] = ndjson(second.stdout);
    expect(result).toMatchObject({ status: 'uploaded', item: { sha256: sha256(changed) } });
    expect(result.item.id).not.toBe(ndjson(first.stdout)[0].item.id);
    const seen = await stats();
    expect(seen.requests.uploadFile).toBe(2); // the replay of the first version, then the new version
    expect(seen.executions.uploadFile).toBe(1);
    expect((await files()).map((item) => item.sha256).sort()).toEqual([sha256(original), sha256(changed)].sort());

    // The run after: the sampled key's replay is the first version's; the key of its SHA-256 finds the second.
    await resetStats();
    const third = await kagent(['lib', 'upload', dir, '--json']);
    expect(ndjson(third.stdout)[0]).toMatchObject({ status: 'exists', item: { id: result.item.id } });
    expect((await stats()).executions.uploadFile ?? 0).toBe(0);
    expect(await files()).toHaveLength(2);
  });

  it("a replayed answer to a sampled key that does not tell its SHA-256, or a 422 for it: sent again under the key of the file's SHA-256", async () => {
    const large = largePdf();
    const dir = folder({ 'large.pdf': large });
    for (const sampledAnswer of [
      {
        status: 201,
        body: { item: { id: 'li_old', kind: 'file', fileName: 'large.pdf', sha256: null }, duplicate: false },
        headers: { 'idempotent-replayed': 'true' },
      },
      {
        status: 422,
        body: {
          error: {
            code: 'IDEMPOTENCY_MISMATCH',
            message: 'This Idempotency-Key was used with a different request body',
          },
        },
      },
    ]) {
      const server = await tinyServer((req) => {
        if (req.url === '/api/v1/me') return { status: 200, body: { limits: {} } };
        if (String(req.headers['idempotency-key']).startsWith('kagent-sampled-v1:')) return sampledAnswer;
        return {
          status: 201,
          body: {
            item: { id: 'li_new', kind: 'file', fileName: 'large.pdf', sha256: sha256(large) },
            duplicate: false,
          },
        };
      });
      try {
        const r = await runCli(['lib', 'upload', dir, '--json'], {
          env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_test' },
        });
        expect(r.code).toBe(0);
        expect(ndjson(r.stdout)[0]).toMatchObject({ status: 'uploaded', item: { id: 'li_new' } });
        const keys = server.requests
          .filter((req) => req.url.startsWith('/api/v1/library/files'))
          .map((req) => String(req.headers['idempotency-key']));
        expect(keys).toHaveLength(2);
        expect(keys[0]).toMatch(/^kagent-sampled-v1:[0-9a-f]{64}:[0-9a-f]{32}$/);
        expect(keys[1]).toMatch(new RegExp(`^kagent-upload-v1:${sha256(large)}:[0-9a-f]{32}$`));
        expect(keys[1]!.slice(-32)).toBe(keys[0]!.slice(-32)); // the same name and options
      } finally {
        await server.close();
      }
    }
  });

  it('a service that stored other bytes than were hashed: CONTENT_MISMATCH for that file (exit 1)', async () => {
    const server = await tinyServer((req) => {
      if (req.url === '/api/v1/me') return { status: 200, body: { limits: {} } };
      return {
        status: 201,
        body: { item: { id: 'li_other', kind: 'file', fileName: 'a.md', sha256: 'f'.repeat(64) }, duplicate: false },
      };
    });
    try {
      const dir = folder({ 'a.md': '# a\n' });
      const r = await runCli(['lib', 'upload', dir, '--json'], {
        env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_test' },
      });
      expect(r.code).toBe(1);
      expect(ndjson(r.stdout)[0]).toMatchObject({
        status: 'failed',
        item: { id: 'li_other' },
        error: { code: 'CONTENT_MISMATCH' },
      });
    } finally {
      await server.close();
    }
  });
});

describe('lib upload: digests of unchanged files are kept', () => {
  const digests = () => {
    try {
      return readdirSync(join(s.configDir, 'cache', 'digests')).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
  };

  // A file is recorded only once it has not changed for 2 s (by its change time, which
  // no tool can set back, so not by setting its times): the command's clock is set
  // instead of the test waiting (or of a slow machine taking 2 s to get there).
  const settled = { now: () => Date.now() + 3_000, sleep: abortableSleep };

  it('a file written just now is not recorded (it may still be changing)', async () => {
    const before = digests().length;
    const dir = folder({ 'fresh.pdf': Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(5 * 1024 * 1024)]) });
    // The clock stays at the moment the file was written, however long the upload takes.
    const written = Number(statSync(join(dir, 'fresh.pdf'), { bigint: true }).ctimeNs / 1_000_000n) + 1;
    expect((await kagent(['lib', 'upload', dir], { clock: { now: () => written, sleep: abortableSleep } })).code).toBe(
      0,
    );
    expect(digests()).toHaveLength(before);
  });

  it('an unchanged file is not hashed again: the recorded digest is used (a tampered entry is caught by the SHA-256 check); a changed file is hashed again', async () => {
    const content = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(5 * 1024 * 1024)]);
    const dir = folder({ 'settled.pdf': content });
    const before = new Set(digests());
    const first = await kagent(['lib', 'upload', dir, '--json'], { clock: settled });
    expect(ndjson(first.stdout)[0].status).toBe('uploaded');
    const added = digests().filter((name) => !before.has(name));
    expect(added).toHaveLength(1);
    const entryPath = join(s.configDir, 'cache', 'digests', added[0] as string);
    const entry = JSON.parse(readFileSync(entryPath, 'utf8'));
    expect(entry).toMatchObject({ sha256: sha256(content) });
    expect(JSON.stringify(entry)).not.toContain(dir); // no paths kept

    // Tampered: the next run takes the recorded digest as it is, and the service's SHA-256 disagrees.
    writeFileSync(entryPath, JSON.stringify({ ...entry, sha256: 'a'.repeat(64) }));
    const tampered = await kagent(['lib', 'upload', dir, '--json', '--note', 'again']);
    expect(tampered.code).toBe(1);
    expect(ndjson(tampered.stdout)[0].error.code).toBe('CONTENT_MISMATCH');

    // Changed (same size, new bytes): its change time moved, so it is hashed and sent again.
    const changed = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(5 * 1024 * 1024)]);
    writeFileSync(join(dir, 'settled.pdf'), changed);
    const after = await kagent(['lib', 'upload', dir, '--json']);
    expect(after.code).toBe(0);
    expect(ndjson(after.stdout)[0]).toMatchObject({ status: 'uploaded', item: { sha256: sha256(changed) } });
  });

  it("a large file's SHA-256, read to check a replayed answer, is recorded: the next rerun checks against the record (a tampered one is caught)", async () => {
    await s.t.patchAccount(accountId, { limits: { fileBytes: 200 * 1024 * 1024 } });
    const dir = folder({ 'large.pdf': largePdf() });
    // The first upload is keyed by samples and reads nothing more: nothing recorded.
    const before = new Set(digests());
    expect(ndjson((await kagent(['lib', 'upload', dir, '--json'], { clock: settled })).stdout)[0].status).toBe(
      'uploaded',
    );
    expect(digests().filter((name) => !before.has(name))).toHaveLength(0);
    // The rerun checks the replayed answer against the file's SHA-256, and records it.
    expect(ndjson((await kagent(['lib', 'upload', dir, '--json'], { clock: settled })).stdout)[0].status).toBe(
      'exists',
    );
    const added = digests().filter((name) => !before.has(name));
    expect(added).toHaveLength(1);
    const entryPath = join(s.configDir, 'cache', 'digests', added[0] as string);
    const entry = JSON.parse(readFileSync(entryPath, 'utf8'));
    expect(entry.sha256).toBe(sha256(readFileSync(join(dir, 'large.pdf'))));
    // Tampered: the replay no longer matches the record, so the file goes under the key of the
    // recorded digest, and the service's SHA-256 of what it received disagrees with it.
    writeFileSync(entryPath, JSON.stringify({ ...entry, sha256: 'a'.repeat(64) }));
    const tampered = await kagent(['lib', 'upload', dir, '--json']);
    expect(tampered.code).toBe(1);
    expect(ndjson(tampered.stdout)[0].error.code).toBe('CONTENT_MISMATCH');
  });
});

describe('lib upload: checked before sending', () => {
  it('type by content, empty files: refused with their codes, and not a single request (exit 2)', async () => {
    const dir = folder({
      'photo.pdf': randomBytes(4096), // named .pdf, but random bytes
      'archive.docx': makeZip({ 'readme.txt': 'not a word document' }),
      'latin1.txt': Buffer.from('caf\xe9 au lait\n', 'latin1'),
      'empty.md': '',
    });
    const r = await kagent(['lib', 'upload', dir, '--json']);
    expect(r.code).toBe(2);
    const byName = Object.fromEntries(ndjson(r.stdout).map((x) => [x.name, x]));
    expect(byName['photo.pdf'].error.code).toBe('UNSUPPORTED_TYPE');
    expect(byName['archive.docx'].error.code).toBe('UNSUPPORTED_TYPE');
    expect(byName['archive.docx'].error.message).toMatch(/not a Word document/);
    expect(byName['latin1.txt'].error.code).toBe('UNSUPPORTED_TYPE');
    expect(byName['empty.md'].error.code).toBe('EMPTY_FILE');
    expect(Object.values(byName).every((x: any) => x.status === 'failed' && x.error.status === undefined)).toBe(true);
    expect((await stats()).requests).toEqual({});
  });

  it('text that turns binary past the first 64 KiB: refused after reading it all; no request for it', async () => {
    const dir = folder({
      'binary-tail.txt': Buffer.concat([Buffer.alloc(70_000, 'a'), Buffer.from([0, 1, 2])]),
      'split.txt': Buffer.concat([Buffer.alloc(65_535, 'a'), Buffer.from('é', 'utf8'), Buffer.from('\n')]),
    });
    const r = await kagent(['lib', 'upload', dir, '--json']);
    expect(r.code).toBe(2);
    const byName = Object.fromEntries(ndjson(r.stdout).map((x) => [x.name, x]));
    expect(byName['binary-tail.txt'].error).toEqual({
      code: 'UNSUPPORTED_TYPE',
      message: expect.stringMatching(/binary content after the first bytes/),
    });
    // A character split across the 64 KiB boundary is still text.
    expect(byName['split.txt'].status).toBe('uploaded');
    expect((await stats()).requests).toEqual({ uploadFile: 1 });
  });

  it('content wins over the name: a PDF named .txt and text named .pdf are sent as what they are', async () => {
    const dir = folder({ 'really-a-pdf.txt': makePdf(['hello']), 'really-text.pdf': 'just words\n' });
    const r = await kagent(['lib', 'upload', dir]);
    expect(r.code).toBe(0);
    const mimes = Object.fromEntries((await files()).map((f) => [f.fileName, f.mime]));
    expect(mimes).toEqual({ 'really-a-pdf.txt': 'application/pdf', 'really-text.pdf': 'text/plain' });
  });

  it("a file of 1 MiB or more over the plan's per-file limit: FILE_TOO_LARGE (exit 6) after one GET /me, its body never sent", async () => {
    await s.t.patchAccount(accountId, { limits: { fileBytes: LIMIT_ASKED_FROM } });
    const dir = folder({
      'big.txt': 'x'.repeat(LIMIT_ASKED_FROM + 1),
      'bigger.txt': 'z'.repeat(LIMIT_ASKED_FROM + 2),
      'at-limit.txt': 'y'.repeat(LIMIT_ASKED_FROM),
    });
    const r = await kagent(['lib', 'upload', dir]);
    expect(r.code).toBe(6);
    expect(rows(r.stdout).sort()).toEqual([
      ['failed', join(dir, 'big.txt'), '', 'FILE_TOO_LARGE'],
      ['failed', join(dir, 'bigger.txt'), '', 'FILE_TOO_LARGE'],
      ['uploaded', join(dir, 'at-limit.txt'), expect.stringMatching(/^li_/), ''],
    ]);
    expect(r.stderr).toMatch(/big\.txt: the file is 1\.0 MiB; the plan allows 1\.0 MiB per file \(FILE_TOO_LARGE\)/);
    // One GET /me for the run, one upload: the two files over the limit sent nothing.
    expect((await stats()).requests).toEqual({ getMe: 1, uploadFile: 1 });
  });

  it("a small file over the plan's per-file limit: the service's 413 FILE_TOO_LARGE says so (exit 6), for one request and no GET /me", async () => {
    await s.t.patchAccount(accountId, { limits: { fileBytes: 1000 } });
    const dir = folder({ 'big.txt': 'x'.repeat(1001), 'small.txt': 'y'.repeat(1000) });
    const r = await kagent(['lib', 'upload', dir]);
    expect(r.code).toBe(6);
    expect(rows(r.stdout).sort()).toEqual([
      ['failed', join(dir, 'big.txt'), '', 'FILE_TOO_LARGE'],
      ['uploaded', join(dir, 'small.txt'), expect.stringMatching(/^li_/), ''],
    ]);
    expect(r.stderr).toMatch(/big\.txt: .*1001 bytes.*1000 bytes per file \(FILE_TOO_LARGE\)/);
    expect((await stats()).requests).toEqual({ uploadFile: 2 });
    expect((await files()).map((f) => f.fileName)).toEqual(['small.txt']);
  });
});

describe('lib upload: per-file answers of the service', () => {
  it('402 CREDITS_EXHAUSTED and 413 STORAGE_FULL per file, with their codes; the most severe exit code (6)', async () => {
    const a = '# a\n\nfirst file\n';
    const b = '# b\n\nsecond file, longer than the rest\n';
    const c = '# c\n\nthird\n';
    // a fits; b does not fit after a (413); c would fit, but a used the last credits (402).
    await s.t.patchAccount(accountId, { credits: 2, limits: { storageBytes: a.length + c.length + 1 } });
    const dir = folder({ 'a.md': a, 'b.md': b, 'c.md': c });
    const r = await kagent(['lib', 'upload', dir, '--concurrency', '1', '--json']);
    expect(r.code).toBe(6);
    const results = ndjson(r.stdout);
    expect(results[0]).toMatchObject({ name: 'a.md', status: 'uploaded' });
    expect(results[1]).toMatchObject({ name: 'b.md', status: 'failed', error: { code: 'STORAGE_FULL', status: 413 } });
    expect(results[2]).toMatchObject({
      name: 'c.md',
      status: 'failed',
      error: { code: 'CREDITS_EXHAUSTED', status: 402 },
    });
  });

  it('415 and 413 answered by a service that judges differently: reported per file; 413 outranks 415 (exit 6)', async () => {
    const server = await tinyServer((req) => {
      if (req.url === '/api/v1/me') return { status: 200, body: { limits: {} } };
      const name = decodeURIComponent(String(req.headers['x-file-name']));
      if (name === 'odd.md')
        return {
          status: 415,
          body: { error: { code: 'UNSUPPORTED_TYPE', message: 'odd.md is not a supported type' } },
        };
      if (name === 'huge.md')
        return { status: 413, body: { error: { code: 'FILE_TOO_LARGE', message: 'too large for this plan' } } };
      return { status: 201, body: { item: { id: `li_${name}`, kind: 'file', fileName: name }, duplicate: false } };
    });
    try {
      const dir = folder({ 'odd.md': '# odd\n', 'huge.md': '# huge\n', 'fine.md': '# fine\n' });
      const r = await runCli(['lib', 'upload', dir], {
        env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_test' },
      });
      expect(r.code).toBe(6);
      expect(
        rows(r.stdout)
          .map((row) => [row[0], row[1]?.split('/').pop(), row[3]])
          .sort(),
      ).toEqual([
        ['failed', 'huge.md', 'FILE_TOO_LARGE'],
        ['failed', 'odd.md', 'UNSUPPORTED_TYPE'],
        ['uploaded', 'fine.md', ''],
      ]);
      expect(r.stderr).toMatch(/odd\.md: odd\.md is not a supported type \(UNSUPPORTED_TYPE\)/);
      // Every upload carried what the contract asks for.
      const uploads = server.requests.filter((req) => req.url.startsWith('/api/v1/library/files'));
      expect(uploads).toHaveLength(3);
      for (const req of uploads) {
        expect(req.headers['content-type']).toBe('application/octet-stream');
        expect(Number(req.headers['content-length'])).toBeGreaterThan(0);
        expect(req.headers['idempotency-key']).toMatch(/^kagent-upload-v1:[0-9a-f]{64}:[0-9a-f]{32}$/);
      }
    } finally {
      await server.close();
    }
  });
});

describe('lib upload: options', () => {
  it('--space by name, --note, --lang reach the service; a file name with spaces and accents is URL-encoded', async () => {
    const space = (await s.t.call('POST', '/spaces', { key, body: { name: 'Research' } })).body;
    const dir = folder({ 'Rapport – été 2026.md': '# Rapport\n\nLe port.\n' });
    const r = await kagent(['lib', 'upload', dir, '--space', 'Research', '--note', 'for the board', '--lang', 'en']);
    expect(r.code).toBe(0);
    const [item] = await files();
    expect(item).toMatchObject({ fileName: 'Rapport – été 2026.md', spaceId: space.id, note: 'for the board' });
  });

  it("without --space, the profile's default space (config set space) is used", async () => {
    const space = (await s.t.call('POST', '/spaces', { key, body: { name: 'Inbox papers' } })).body;
    const configDir = tempDir('kagent-config-');
    dirs.push(configDir);
    await writeProfile(
      configDir,
      'default',
      { baseUrl: s.t.baseUrl, apiKey: key, space: 'Inbox papers', rateLimit: 100_000 },
      { makeCurrent: true },
    );
    const dir = folder({ 'x.md': '# x\n' });
    const r = await runCli(['lib', 'upload', dir], { configDir });
    expect(r.code).toBe(0);
    expect((await files())[0].spaceId).toBe(space.id);
    const save = await runCli(['lib', 'save', 'https://example.com/articles/papers'], { configDir });
    expect(save.code).toBe(0);
    expect((await s.t.call('GET', `/library/${save.stdout.trim()}`, { key })).body.spaceId).toBe(space.id);
    // A profile space that does not exist: exit 4, nothing sent to the library.
    await writeProfile(configDir, 'default', { space: 'Gone' });
    const gone = await runCli(['lib', 'upload', dir], { configDir });
    expect(gone.code).toBe(4);
    expect(gone.stderr).toMatch(/no space with id or name "Gone"/);
  });

  it('--name renames a single file; with several it is a usage error', async () => {
    const dir = folder({ 'x.md': '# x\n', 'y.md': '# y\n' });
    expect((await kagent(['lib', 'upload', join(dir, 'x.md'), '--name', 'Renamed.md'])).code).toBe(0);
    expect((await files())[0].fileName).toBe('Renamed.md');
    const both = await kagent(['lib', 'upload', dir, '--name', 'z.md']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--name names a single file, but 2 files were given/);
  });

  it('bad option values are usage errors before anything is read or sent', async () => {
    const dir = folder({ 'x.md': '# x\n' });
    for (const argv of [
      ['--concurrency', '0'],
      ['--concurrency', '17'],
      ['--note', 'n'.repeat(2001)],
      ['--space', ''],
    ]) {
      const r = await kagent(['lib', 'upload', dir, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
    }
    expect((await stats()).requests).toEqual({});
  });

  it('--fail-fast: no new file after the first failure; the rest are "skipped" (--json) and the exit is that failure\'s', async () => {
    const dir = folder({ '1-bad.bin': randomBytes(100), '2.md': '# two\n', '3.md': '# three\n' });
    const r = await kagent(['lib', 'upload', dir, '--fail-fast', '--concurrency', '1', '--json']);
    expect(r.code).toBe(2);
    expect(ndjson(r.stdout).map((x) => [x.name, x.status])).toEqual([
      ['1-bad.bin', 'failed'],
      ['2.md', 'skipped'],
      ['3.md', 'skipped'],
    ]);
    expect(r.stderr).toMatch(/0 uploaded, 0 already there, 1 failed, 2 not attempted/);
    expect((await stats()).requests).toEqual({});
  });

  it('a key the service refuses: exit 3 with its code, no file blamed, nothing uploaded', async () => {
    const dir = folder({ 'x.md': '# x\n', 'y.md': '# y\n' });
    const r = await kagent(['lib', 'upload', dir, '--json', '--concurrency', '1'], {
      env: { KAGENT_API_KEY: 'kak_not_a_key' },
    });
    expect(r.code).toBe(3);
    expect(ndjson(r.stdout).map((x) => x.status)).toEqual(['failed', 'skipped']);
    expect(ndjson(r.stdout)[0].error.code).toBe('UNAUTHENTICATED');
    expect(JSON.parse(r.stderr.trimEnd().split('\n').pop() as string).error.code).toBe('UNAUTHENTICATED');
    // The first upload meets the refusal; the run starts no other.
    expect((await stats()).requests).toEqual({ uploadFile: 1 });
  });

  it('no API key: exit 3 before anything is read', async () => {
    const dir = folder({ 'x.md': '# x\n' });
    const r = await runCli(['lib', 'upload', dir], { env: { KAGENT_BASE_URL: s.t.baseUrl } });
    expect(r.code).toBe(3);
  });
});

describe('lib upload: stdin', () => {
  it('"-" with --name: saved to a temporary file first, uploaded, the temporary file removed', async () => {
    const leftovers = () => readdirSync(tmpdir()).filter((name) => name.startsWith('kagent-stdin-'));
    const before = new Set(leftovers());
    const text = '# From stdin\n\nPiped notes about the harbour.\n';
    const r = await kagent(['lib', 'upload', '-', '--name', 'piped.md'], { stdin: text });
    expect(r.code).toBe(0);
    expect(rows(r.stdout)).toEqual([['uploaded', '-', expect.stringMatching(/^li_/), '']]);
    const [item] = await files();
    expect(item).toMatchObject({
      fileName: 'piped.md',
      mime: 'text/markdown',
      size: Buffer.byteLength(text),
      sha256: sha256(text),
    });
    expect(leftovers().filter((name) => !before.has(name))).toEqual([]);
    // The same bytes again: already there.
    const again = await kagent(['lib', 'upload', '-', '--name', 'piped.md'], { stdin: text });
    expect(rows(again.stdout)[0]?.[0]).toBe('exists');
  });

  it('"-" without --name, twice, or from a terminal: usage errors', async () => {
    expect((await kagent(['lib', 'upload', '-'], { stdin: 'x' })).stderr).toMatch(/needs --name/);
    expect((await kagent(['lib', 'upload', '-', '-', '--name', 'a.md'], { stdin: 'x' })).code).toBe(2);
    const tty = await kagent(['lib', 'upload', '-', '--name', 'a.md'], { tty: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/stdin is a terminal/);
  });

  it('empty stdin is refused like an empty file', async () => {
    const r = await kagent(['lib', 'upload', '-', '--name', 'a.md', '--json'], { stdin: '' });
    expect(r.code).toBe(2);
    expect(ndjson(r.stdout)[0].error.code).toBe('EMPTY_FILE');
    expect((await stats()).requests).toEqual({});
  });
});

describe('lib upload: output modes', () => {
  it('terminal: one "✓ uploaded" line per file on stdout, a progress bar and the summary on stderr', async () => {
    const dir = folder({ 'a.md': '# a\n', 'b.bin': randomBytes(50) });
    const r = await kagent(['lib', 'upload', dir], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(2);
    const lines = unwrap(r.stdout).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.startsWith('✓ uploaded'))).toMatch(
      new RegExp(`✓ uploaded ${join(dir, 'a.md')} → li_\\w+ \\(4 B\\)`),
    );
    expect(lines.find((line) => line.startsWith('✗ failed'))).toMatch(
      /b\.bin: b\.bin is (binary content|not UTF-8 text).*\(UNSUPPORTED_TYPE\)/,
    );
    expect(r.stderr).toMatch(/1 uploaded, 0 already there, 1 failed/);
    expect(r.stderr).toMatch(/error: 1 of 2 files failed \(UPLOAD_FAILED\)/);
    expect(hasForeignEscapes(r.stdout)).toBe(false);
  });

  it('terminal: the ✓ line says which space the file landed in (the service picks one without --space), its name escaped', async () => {
    const dir = folder({ 'a.md': '# a\n' });
    const r = await kagent(['lib', 'upload', join(dir, 'a.md')], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    const [item] = await files();
    const spaces = (await s.t.call('GET', '/spaces', { key })).body.items as Array<{ id: string; name: string }>;
    const space = spaces.find((sp) => sp.id === item.spaceId)!;
    expect(r.stdout).toBe(`✓ uploaded ${join(dir, 'a.md')} → ${item.id} (4 B) in ${space.name} (${space.id})\n`);

    const evil = (await s.t.call('POST', '/spaces', { key, body: { name: 'Evil\x1b]0;pwned\x07\x1b[31mRed' } })).body;
    const b = folder({ 'b.md': '# b\n' });
    const second = await kagent(['lib', 'upload', join(b, 'b.md'), '--space', evil.id], { tty: true });
    expect(second.code).toBe(0);
    expect(hasForeignEscapes(second.stdout)).toBe(false);
    expect(second.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(
      new RegExp(`✓ uploaded ${join(b, 'b.md')} → li_\\w+ \\(4 B\\) in Evil.*Red \\(${evil.id}\\)\\n$`),
    );
  });

  it('terminal: the progress bar shows files, bytes, speed and the files in flight, and is cleared at the end', async () => {
    const dir = folder({ 'slow.md': `# slow\n${'z'.repeat(10_000)}\n` });
    await s.t.inject({ kind: 'slow', ms: 400, count: 1, method: 'POST', path: '/api/v1/library/files' });
    const r = await kagent(['lib', 'upload', dir], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    // While the service takes its time: not done yet, the bytes sent, a speed, the file in flight.
    expect(r.stderr).toMatch(
      /\r\x1b\[2K[█░]{12,20} +\d+% 0\/1 files · [\d.]+ (B|KiB)\/9\.8 KiB · [\d.]+ (B|KiB|MiB)\/s · slow\.md/,
    );
    expect(r.stderr).not.toMatch(/100% 0\/1/);
    expect(r.stderr).toMatch(/\r\x1b\[2K1 uploaded, 0 already there, 0 failed/);
  });

  it('in CI or with --quiet: no progress bar; --quiet also drops the summary', async () => {
    const dir = folder({ 'a.md': '# a\n' });
    const ci = await kagent(['lib', 'upload', dir], { tty: true, env: { CI: 'true' } });
    expect(ci.stderr).not.toMatch(/\r/);
    const quiet = await kagent(['lib', 'upload', dir, '--quiet'], { tty: true });
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toMatch(/already there/);
  });

  it('--json: one JSON object per file (NDJSON); --jq filters each', async () => {
    const dir = folder({ 'a.md': '# a\n', 'b.md': '# b\n' });
    const r = await kagent(['lib', 'upload', dir, '--json'], { tty: true });
    const results = ndjson(r.stdout);
    expect(results).toHaveLength(2);
    for (const result of results) {
      // One schema for every line of lib upload and lib sync, plan and run (src/upload/lines.ts): null where it does not apply.
      expect(Object.keys(result)).toEqual([...FIELDS]);
      expect(result).toMatchObject({ previous: null, reason: null, error: null, key: null });
      expect(result.item).toMatchObject({ kind: 'file', fileName: result.name });
    }
    const jq = await kagent(['lib', 'upload', dir, '--jq', '.status + " " + .name']);
    expect(jq.stdout.trimEnd().split('\n').sort()).toEqual(['exists a.md', 'exists b.md']);
  });
});

describe('lib upload --dry-run: the plan, and not a single upload request', () => {
  it('every local check, each key, the bytes and requests; "already there" from the library\'s SHA-256; exit as a real run', async () => {
    const dir = folder({ ...DOCS, 'empty.md': '', 'photo.pdf': randomBytes(4096) });
    // One of them is in the library already.
    expect((await kagent(['lib', 'upload', join(dir, 'report.pdf')])).code).toBe(0);
    const [stored] = await files();
    await resetStats();

    const r = await kagent(['lib', 'upload', dir, '--dry-run', '--json']);
    expect(r.code).toBe(2);
    const st = await stats();
    expect(st.requests.uploadFile).toBeUndefined();
    expect(st.executions.uploadFile).toBeUndefined();
    expect(Object.keys(st.requests).sort()).toEqual(['getMe', 'listLibrary']);
    expect(await files()).toHaveLength(1);

    const byName = Object.fromEntries(ndjson(r.stdout).map((x) => [x.name, x]));
    expect(Object.keys(byName).sort()).toEqual([
      'empty.md',
      'map.png',
      'minutes.docx',
      'photo.pdf',
      'plan.md',
      'report.pdf',
      'todo.txt',
    ]);
    expect(byName['report.pdf']).toMatchObject({
      status: 'exists',
      item: { id: stored.id },
      sha256: sha256(DOCS['report.pdf']),
    });
    expect(byName['empty.md']).toMatchObject({ status: 'fail', error: { code: 'EMPTY_FILE' } });
    expect(byName['photo.pdf']).toMatchObject({ status: 'fail', error: { code: 'UNSUPPORTED_TYPE' } });
    const plan = byName['plan.md'];
    expect(plan).toMatchObject({
      status: 'upload',
      size: Buffer.byteLength(DOCS['notes/plan.md']),
      sha256: sha256(DOCS['notes/plan.md']),
    });
    expect(plan.key).toBe(uploadKey({ digest: sha256(DOCS['notes/plan.md']), sampled: false, name: 'plan.md' }));
    const sending = ['map.png', 'minutes.docx', 'plan.md', 'todo.txt'].map((name) => byName[name]);
    expect(sending.every((f) => f.status === 'upload')).toBe(true);
    const bytes = sending.reduce((sum, f) => sum + f.size, 0);
    expect(r.stderr).toContain(
      `Dry run, nothing sent: 4 would upload (${formatBytes(bytes)} in 4 upload requests, 1 s of the rate of 100000 requests a minute), 1 already there, 2 would fail`,
    );
    expect(r.stderr).toContain('2 of 7 files would fail; nothing was sent (dry run)');

    // The run it planned: the keys it said are the keys sent (a rerun of the same files adds nothing twice).
    const real = await kagent(['lib', 'upload', dir, '--json']);
    const realByName = Object.fromEntries(ndjson(real.stdout).map((x) => [x.name, x]));
    expect(realByName['plan.md'].status).toBe('uploaded');
    expect(realByName['report.pdf'].status).toBe('exists');
  });

  it("piped: the run's columns (status, path, item, error); the key in --json, and on a terminal only with --debug; the rate of the profile sets the time", async () => {
    const dir = folder({ 'a.md': '# A\n', 'b.txt': 'b\n' });
    await writeProfile(s.configDir, 'slow', { baseUrl: s.t.baseUrl, apiKey: key, rateLimit: 30 }, {});
    const keyA = uploadKey({ digest: sha256('# A\n'), sampled: false, name: 'a.md' });
    const keyB = uploadKey({ digest: sha256('b\n'), sampled: false, name: 'b.txt' });
    const r = await kagent(['lib', 'upload', dir, '--dry-run', '-p', 'slow']);
    expect(r.code).toBe(0);
    expect(rows(r.stdout).sort()).toEqual([
      ['upload', join(dir, 'a.md'), '', ''],
      ['upload', join(dir, 'b.txt'), '', ''],
    ]);
    expect(r.stdout).not.toContain(keyA);
    expect(r.stderr).toContain('2 would upload (6 B in 2 upload requests, 4 s of the rate of 30 requests a minute)');
    const json = await kagent(['lib', 'upload', dir, '--dry-run', '-p', 'slow', '--json']);
    expect(
      ndjson(json.stdout)
        .map((l) => [l.name, l.key])
        .sort(),
    ).toEqual([
      ['a.md', keyA],
      ['b.txt', keyB],
    ]);
    const tty = await kagent(['lib', 'upload', join(dir, 'a.md'), '--dry-run'], { tty: true });
    expect(tty.code).toBe(0);
    const ttyOut = tty.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(ttyOut).toBe(`+ would upload ${join(dir, 'a.md')} (4 B)\n`);
    const ttyDebug = await kagent(['lib', 'upload', join(dir, 'a.md'), '--dry-run', '--debug'], { tty: true });
    expect(ttyDebug.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toContain(
      `+ would upload ${join(dir, 'a.md')} (4 B) key ${keyA}`,
    );
    expect((await stats()).executions.uploadFile).toBeUndefined();
  });
});

describe('lib upload: reports where CI reads them', () => {
  const content = {
    'good.md': '# Good\n',
    'also good.txt': 'fine\n',
    'a,b: empty.md': '',
    'fake.pdf': randomBytes(2048),
  };

  it('GITHUB_ACTIONS: a Markdown table appended to $GITHUB_STEP_SUMMARY, an ::error annotation per failed file', async () => {
    const dir = folder(content);
    const summaryFile = join(tempDir('kagent-gha-'), 'step-summary.md');
    writeFileSync(summaryFile, '## Earlier step\n\n');
    const r = await kagent(['lib', 'upload', dir], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile },
    });
    expect(r.code).toBe(2);
    const md = readFileSync(summaryFile, 'utf8');
    expect(
      md.startsWith('## Earlier step\n\n### kagent lib upload\n\n2 uploaded, 0 already there, 2 failed (12 B)\n\n'),
    ).toBe(true);
    expect(md).toContain('| Status | File | Size | Item or error |\n| --- | --- | ---: | --- |\n');
    const ids = Object.fromEntries((await files()).map((f) => [f.fileName, f.id]));
    expect(md).toContain(`| ✅ uploaded | \`${join(dir, 'good.md')}\` | 7 B | \`${ids['good.md']}\` |`);
    expect(md).toContain(`| ❌ failed | \`${join(dir, 'a,b: empty.md')}\` | 0 B | \`EMPTY_FILE\`: the file is empty |`);
    expect(md).toMatch(
      /\| ❌ failed \| `[^`]*fake\.pdf` \| 2\.0 KiB \| `UNSUPPORTED_TYPE`: fake\.pdf is binary content /,
    );
    const annotations = r.stderr.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations).toHaveLength(2);
    expect(annotations).toContain(
      `::error file=${join(dir, 'a%2Cb%3A empty.md')},title=upload failed (EMPTY_FILE)::${join(dir, 'a,b: empty.md')}: the file is empty`,
    );
    expect(
      annotations.some((line) =>
        line.startsWith(`::error file=${join(dir, 'fake.pdf')},title=upload failed (UNSUPPORTED_TYPE)::`),
      ),
    ).toBe(true);
    // Without GITHUB_ACTIONS: neither.
    writeFileSync(summaryFile, '');
    const plainRun = await kagent(['lib', 'upload', dir], { env: { GITHUB_STEP_SUMMARY: summaryFile } });
    expect(plainRun.stderr).not.toContain('::error');
    expect(readFileSync(summaryFile, 'utf8')).toBe('');
  });

  it('GITHUB_ACTIONS: a refusal of the whole run is an ::error annotation and a line in the step summary', async () => {
    const dir = folder({ 'a.md': '# A\n', 'b.md': '# B\n' });
    const summaryFile = join(tempDir('kagent-gha-'), 'step-summary.md');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile };
    const r = await kagent(['lib', 'upload', dir, '--name', 'one.md'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^::error title=kagent lib upload refused \(USAGE\)::--name names a single file/m);
    expect(readFileSync(summaryFile, 'utf8')).toMatch(
      /^### kagent lib upload\n\n❌ Refused \(`USAGE`\): --name names a single file, but 2 files were given/,
    );
    // Without GITHUB_ACTIONS: neither.
    writeFileSync(summaryFile, '');
    const plain = await kagent(['lib', 'upload', dir, '--name', 'one.md'], {
      env: { GITHUB_STEP_SUMMARY: summaryFile },
    });
    expect(plain.code).toBe(2);
    expect(plain.stderr).not.toContain('::error');
    expect(readFileSync(summaryFile, 'utf8')).toBe('');
  });

  it("--report FILE: a JUnit XML report, one test case per file, valid under Jenkins' JUnit schema", async () => {
    const dir = folder(content);
    const work = tempDir('kagent-junit-');
    const report = join(work, 'report.xml');
    const r = await kagent(['lib', 'upload', dir, '--report', report, '--json']);
    expect(r.code).toBe(2);
    const xml = readFileSync(report, 'utf8');
    const lint = await xmllint(xml);
    expect(lint.output).toContain('report.xml validates');
    expect(lint.valid).toBe(true);
    expect(xml).toMatch(/<testsuites name="kagent lib upload" tests="4" failures="2" errors="0" time="[\d.]+">/);
    expect(xml).toMatch(/<testsuite name="kagent lib upload" tests="4" failures="2" errors="0" skipped="0" time=/);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain(`<testcase name="${join(dir, 'a,b: empty.md')}" classname="kagent.lib.upload"`);
    expect(xml).toContain(
      '<failure message="the file is empty" type="EMPTY_FILE">EMPTY_FILE: the file is empty</failure>',
    );
    expect(xml.match(/<failure /g)).toHaveLength(2);

    // The validator is strict: a report without its counts, with an unknown element, with `skipped` counted on
    // <testsuites> or a message on <skipped> (what Jenkins' schema refuses) is refused.
    const refused = async (text: string, why: RegExp) => {
      const lint = await xmllint(text);
      expect(lint.valid).toBe(false);
      expect(lint.output).toMatch(why);
    };
    await refused(xml.replace(/ tests="4"/g, ''), /The attribute 'tests' is required but missing/);
    await refused(xml.replace('<failure ', '<oops ').replace('</failure>', '</oops>'), /Element 'oops'/);
    await refused(xml.replace('<testsuites name="kagent lib upload" ', '<testsuites skipped="0" '), /skipped/);
    await refused(
      xml.replace(
        '<failure message="the file is empty" type="EMPTY_FILE">EMPTY_FILE: the file is empty</failure>',
        '<skipped message="x"/>',
      ),
      /skipped/,
    );
  });

  it('--report: a case cut short is a bare <skipped>; no attribute keeps a raw newline, CR, NEL or U+202E', async () => {
    const { junitXml } = await import('../../src/upload/ci-report.js');
    const hostile = 'a\nb\rc\u0085d\u202ee.md';
    const xml = junitXml(
      [
        {
          result: { path: hostile, status: 'failed', error: { code: 'X\nY', message: 'bad\r\nline\u0085\u202e' } },
          seconds: 0,
        },
        { result: { path: 'later.md', status: 'skipped' }, seconds: 0 },
      ],
      '2026-12-07T00:00:00',
      1,
    );
    expect((await xmllint(xml)).valid).toBe(true);
    for (const [, value] of xml.matchAll(/="([^"]*)"/g)) expect(value).not.toMatch(/[\n\r\u0085\u202e]/);
    expect(xml).toContain('name="a b cd<U+202E>e.md"'.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    expect(xml).toContain('<skipped>not attempted</skipped>');
  });

  it('a report that cannot be written is said, and the uploads stand', async () => {
    const dir = folder({ 'good.md': '# Good\n' });
    const r = await kagent(['lib', 'upload', dir, '--report', join(dir, 'no', 'such', 'dir', 'r.xml')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('could not write the JUnit report to');
    expect(await files()).toHaveLength(1);
  });
});
