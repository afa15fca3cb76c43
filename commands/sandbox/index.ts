// kagent sandbox: runs the local double of the whole API on 127.0.0.1 until
// Ctrl-C. Prints the base URL and an API key (stdout), writes a `sandbox`
// profile pointing at it, and logs requests to stderr unless --quiet. The
// sandbox itself (src/sandbox/) is imported only here, when the command runs.
import { once } from 'node:events';
import { CliError, ExitCode, UsageError } from '../../src/errors.js';
import { defineGroup } from '../../src/kit/define.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { wrapText } from '../../src/io/width.js';
import { note, pipedFieldsHelp } from '../../src/io/output.js';
import { announce, announcement } from '../../src/views/sandbox.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { profileToClaim, SANDBOX_PROFILE, writeSandboxProfile } from '../../src/config/sandbox-profile.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { settingFlags, settingsProblem } from '../../src/sandbox/settings.js';
import { startFailure } from '../../src/sandbox/start-failure.js';

const DEFAULT_PORT = 8787;

const options = [
  {
    flags: '--port <n>',
    description: `port on 127.0.0.1 (0 picks a free one)`,
    type: 'integer',
    min: 0,
    max: 65535,
    default: DEFAULT_PORT,
  },
  ...settingFlags,
  {
    flags: '--no-save-profile',
    description: 'do not write the `sandbox` profile (or the one named with --profile)',
  },
] as const;

/** The heading of the script example (a test runs the lines after it in bash, as printed by --help). */
const SCRIPT_EXAMPLE_HEADING = '# in a script: start it in the background, wait for its line, take its URL and key';
const SCRIPT_EXAMPLE = [
  'kagent sandbox --port 0 --quiet --json > sandbox.json &',
  'until [ -s sandbox.json ]; do sleep 0.1; done',
  'eval "$(jq -r \'"export KAGENT_BASE_URL=\\(.baseUrl) KAGENT_API_KEY=\\(.apiKey)"\' sandbox.json)"',
  'kagent me; kill %1',
];

export default defineGroup({
  // Paragraphs without line breaks of their own: help wraps them to the terminal.
  description:
    'A stateful, faithful double of the whole API on 127.0.0.1: every operation, every error code and limit, ' +
    'idempotency, the rate limit, credits, and background work (watch briefs, media transcripts, chat turns) ' +
    'that moves on with the sandbox clock. It prints its base URL and an API key, writes a `sandbox` profile ' +
    '(use it with `kagent -p sandbox ...`), and runs until Ctrl-C, SIGTERM or SIGHUP. Sandbox-only admin routes live under ' +
    '/_sandbox/ (GET /_sandbox/ lists them): create accounts, set credits and limits, advance the clock, inject faults.' +
    '\n\n' +
    `--json prints {baseUrl, apiKey, profile}. ${pipedFieldsHelp(announcement)}`,
  options,
  examples: [
    'kagent sandbox',
    '# another terminal:',
    'kagent -p sandbox me',
    'kagent sandbox --port 0 --state ./sandbox.json --speed 60',
    'kagent sandbox --rate-limit 0 --faults 503=0.1,slow=0.05:2000 --quiet',
    SCRIPT_EXAMPLE_HEADING,
    ...SCRIPT_EXAMPLE,
  ],
  endsOnInterrupt: true,
  async run(ctx, flags) {
    const problem = settingsProblem(flags);
    if (problem) throw new UsageError(problem);

    // Named with --profile (never KAGENT_PROFILE, which names the profile a shell works with).
    const profileName = flags.saveProfile ? (ctx.flags.profile ?? SANDBOX_PROFILE) : undefined;
    // A profile the sandbox did not save is replaced only with --yes or a yes at a terminal (else exit 2).
    const claim = profileName ? profileToClaim(ctx, profileName) : undefined;
    if (claim) await confirmOrYes(ctx, claim);

    // At a terminal, the request log wraps at its width like any other line.
    const columns = ctx.io.stderrIsTTY ? (ctx.io.stderr.columns ?? ctx.io.columns) : undefined;
    const fitted = (line: string) => (columns ? wrapText(line, columns, { hanging: 2 }) : line);
    let sandbox: Sandbox;
    try {
      // The settings' flags are named as startSandbox() names them (but --state).
      sandbox = await startSandbox({
        ...flags,
        stateFile: flags.state,
        host: '127.0.0.1',
        quiet: ctx.flags.quiet,
        log: (line) => ctx.io.stderr.write(`${fitted(sanitizeLine(line))}\n`),
        warn: (line) => ctx.io.stderr.write(`${fitted(`warning: ${sanitizeLine(line)}`)}\n`),
        checkExtractors: true,
      });
    } catch (error) {
      const failure = startFailure(error, flags.port);
      const exitCode = failure.usage ? ExitCode.USAGE : ExitCode.ERROR;
      throw new CliError(failure.message, { exitCode, code: failure.code, hint: failure.hint, cause: error });
    }

    try {
      if (profileName) await writeSandboxProfile(ctx, profileName, { ...sandbox, rateLimit: flags.rateLimit });
      const profile = profileName ?? null;
      await announce(ctx, { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, profile }, sandbox.origin, flags);
      if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
    } finally {
      await sandbox.close().catch((error: Error) => {
        // Only when a change is saved nowhere (the disk full at the last snapshot): not a clean stop.
        throw new CliError(error.message, { code: 'STATE_NOT_SAVED', cause: error });
      });
    }
    await note(ctx, flags.state ? `Sandbox stopped; state saved to ${flags.state}` : 'Sandbox stopped');
  },
});
