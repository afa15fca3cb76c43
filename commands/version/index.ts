// `kagent version`: what `kagent --version` prints (as `gh version` is `gh --version`),
// with --json for scripts and bug reports.
import { defineGroup } from '../../src/kit/define.js';
import { printItem } from '../../src/io/output.js';
import { platformText } from '../../src/cli/version.js';

// The day this build was made (scripts/build.mjs defines it; absent when run from source).
declare const KAGENT_BUILD_DATE: string | undefined;

export default defineGroup({
  description:
    'The same line as `kagent --version`; --verbose adds the Node.js and the system under it (for bug reports). ' +
    'With --json: {version, buildDate, node, platform, arch}.',
  options: [{ flags: '--verbose', description: 'also the Node.js and the system kagent runs on' }],
  examples: ['kagent version', 'kagent version --verbose', 'kagent version --json'],
  async run(ctx, opts) {
    const buildDate = typeof KAGENT_BUILD_DATE === 'string' ? KAGENT_BUILD_DATE : null;
    const info = {
      version: ctx.version,
      buildDate,
      node: process.version,
      platform: ctx.platform,
      arch: process.arch,
    };
    await printItem(
      ctx,
      info,
      (v) =>
        `kagent version ${v.version}${v.buildDate ? ` (${v.buildDate})` : ''}${opts.verbose ? `\n${platformText().trimEnd()}` : ''}`,
    );
  },
});
