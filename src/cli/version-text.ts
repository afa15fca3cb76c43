// The version line, as `gh --version` prints it: the launcher's front answers
// `--version` with it, and the program's commander gets it too.
import pkg from '../../package.json' with { type: 'json' };

// The day this build was made (scripts/build.mjs defines it; absent when run from source).
declare const KAGENT_BUILD_DATE: string | undefined;
const buildDate = typeof KAGENT_BUILD_DATE === 'string' ? KAGENT_BUILD_DATE : undefined;

export const version = pkg.version;
export const versionText = `kagent version ${pkg.version}${buildDate ? ` (${buildDate})` : ''}`;
