// The served OpenAPI document under a linter nobody here wrote: Spectral's
// recommended OpenAPI ruleset (test/contract/spectral.yaml), run by its own
// command-line tool (@stoplight/spectral-cli) on the document the sandbox
// serves at /openapi.json. Nothing may come back, not even a hint: an
// operation without a description or a tag missing from the top-level
// `tags` is a warning there. A copy of the document with such faults, linted
// in the same run, shows the check can fail.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const require = createRequire(import.meta.url);
const spectral = join(dirname(require.resolve('@stoplight/spectral-cli/package.json')), 'dist', 'index.js');
const ruleset = fileURLToPath(new URL('spectral.yaml', import.meta.url));

interface Finding {
  code: string;
  message: string;
  path: string[];
  severity: number;
  source: string;
}

/** `spectral lint` of the files, its findings as JSON; its exit status is 1 when something at or above a hint was found. */
async function lint(...files: string[]): Promise<{ code: number; findings: Finding[] }> {
  const run = promisify(execFile)(
    process.execPath,
    [spectral, 'lint', ...files, '--ruleset', ruleset, '--format', 'json', '--fail-severity', 'hint', '--quiet'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const { stdout, code } = await run.then(
    (r) => ({ stdout: r.stdout, code: 0 }),
    (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', code: error.code ?? -1 }),
  );
  return { code, findings: JSON.parse(stdout) as Finding[] };
}

let t: TestSandbox;
let doc: Record<string, any>;
beforeAll(async () => {
  t = await startTestSandbox();
  doc = (await t.call('GET', '/openapi.json', { key: null })).body;
});
afterAll(() => t.close());

describe('the served OpenAPI document under Spectral', () => {
  it('has a licence, top-level tags and a description on every operation, and Spectral finds nothing', async () => {
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    const tags = new Set(doc.tags.map((tag: { name: string }) => tag.name));
    for (const item of Object.values<Record<string, any>>(doc.paths))
      for (const op of Object.values<Record<string, any>>(item)) {
        expect(op.description, op.operationId).toMatch(/^\S.{20,}\.$/);
        expect(op.description, op.operationId).not.toBe(op.summary);
        for (const tag of op.tags) expect(tags, `${op.operationId}'s tag ${tag}`).toContain(tag);
      }

    const dir = tempDir('kagent-spectral-');
    const served = join(dir, 'openapi.json');
    writeFileSync(served, JSON.stringify(doc, null, 2));
    // The faults of the document before (issue 40.20): an operation without a description, a tag not declared.
    const broken = structuredClone(doc);
    delete broken.paths['/me'].get.description;
    broken.tags = broken.tags.filter((tag: { name: string }) => tag.name !== 'account');
    const faulty = join(dir, 'faulty.json');
    writeFileSync(faulty, JSON.stringify(broken, null, 2));

    const { code, findings } = await lint(served, faulty);
    const of = (file: string) =>
      findings.filter((f) => f.source === file).map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`);
    expect(of(served)).toEqual([]);
    expect(of(faulty).sort()).toEqual([
      expect.stringMatching(/^operation-description at paths\.\/me\.get: /),
      expect.stringMatching(/^operation-tag-defined at paths\.\/me\.get\.tags\.0: /),
    ]);
    expect(code).toBe(1);
  }, 120_000); // Spectral's CLI loads for seconds on its own, longer on a busy machine
});
