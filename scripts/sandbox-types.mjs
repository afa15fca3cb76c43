// types/sandbox.d.ts, the declarations of the package's `kagent/sandbox` export,
// generated from src/sandbox/public.ts (the public face the implementation's own
// types extend) by TypeScript's declaration emitter, formatted as the repository
// is. The build writes it; test/unit/sandbox-types.test.ts fails when the
// committed file is not what this makes. `node scripts/sandbox-types.mjs --check`
// writes nothing and exits 1 when the file is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import ts from 'typescript';

const root = new URL('..', import.meta.url);
const SOURCE = 'src/sandbox/public.ts';
export const TYPES_FILE = fileURLToPath(new URL('types/sandbox.d.ts', root));

const HEADER = `// Generated from ${SOURCE} by scripts/sandbox-types.mjs (run by the build): do not edit.
// kagent/sandbox: the local double of the knowledge-agent API, started in-process
// (what \`kagent sandbox\` runs).
`;

const sourcePath = fileURLToPath(new URL(SOURCE, root));

/**
 * The text types/sandbox.d.ts should have (from `source`, public.ts's text by default). Throws when
 * the source needs declarations the emitter cannot make from it alone (a type inferred, not written).
 */
export async function sandboxTypes(source = readFileSync(sourcePath, 'utf8')) {
  const { outputText, diagnostics } = ts.transpileDeclaration(source, {
    fileName: sourcePath,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2023 },
  });
  if (diagnostics?.length) {
    const messages = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    throw new Error(`${SOURCE}: cannot declare it on its own: ${messages.join('; ')}`);
  }
  const options = await prettier.resolveConfig(TYPES_FILE);
  return prettier.format(`${HEADER}${outputText}`, { ...options, filepath: TYPES_FILE });
}

/** Writes types/sandbox.d.ts if it differs; true when it was already up to date. */
export async function writeSandboxTypes({ check = false } = {}) {
  const wanted = await sandboxTypes();
  let current;
  try {
    current = readFileSync(TYPES_FILE, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === wanted) return true;
  if (!check) writeFileSync(TYPES_FILE, wanted);
  return false;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const upToDate = await writeSandboxTypes({ check });
  if (check && !upToDate) {
    console.error('types/sandbox.d.ts is out of date: run node scripts/sandbox-types.mjs');
    process.exitCode = 1;
  }
}
