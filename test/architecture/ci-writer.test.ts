// One CI writer (issue 39.3): of all the sources, only src/upload/ci-report.ts
// writes what CI reads for lib upload and lib sync: the step summary (its
// `### kagent …` heading, $GITHUB_STEP_SUMMARY), the workflow annotations
// (`::error`, `::warning`) and the JUnit report (`<testsuite>`). Comments and
// help text may name them; code outside that module may not write them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/imports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const WRITES = {
  // The file's variable, the table's head, a heading of its own.
  'the step summary': /env\.GITHUB_STEP_SUMMARY|env\[['"]GITHUB_STEP_SUMMARY|\| Status \||['"`]### kagent/,
  // A command built from values (help text shows one as it is), or one let through the output's guard.
  'an annotation': /`::(?:error|warning|notice|\$\{)[^`]*\$\{|(?<!function )\bownWorkflowCommand\(/,
  'the JUnit report': /<testsuites?[\s>]/,
};

/** The code of a file, without its comments (a comment may show what the code writes). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

describe('the CI writer', () => {
  const texts = sourceFiles(root, ['src', 'commands']).map((file) => ({
    file,
    code: code(readFileSync(join(root, file), 'utf8')),
  }));

  for (const [what, pattern] of Object.entries(WRITES))
    it(`${what} is written by src/upload/ci-report.ts alone`, () => {
      expect(texts.filter((t) => pattern.test(t.code)).map((t) => t.file)).toEqual(['src/upload/ci-report.ts']);
    });

  it('finds what the old second writer wrote (the check can fail)', () => {
    const before = "lines.push('### kagent lib sync');\nemit(err, `::warning title=${t}::y`);";
    expect(WRITES['the step summary'].test(code(before))).toBe(true);
    expect(WRITES['an annotation'].test(code(before))).toBe(true);
    expect(WRITES['an annotation'].test(code('// `::error ${x}` in a comment'))).toBe(false);
    expect(WRITES['an annotation'].test("help('an `::error file=PATH::message` annotation')")).toBe(false);
  });
});
