// `kagent watch create`: declares the verb; src/watch/create.ts does the work.
import { defineCommand } from '../../src/kit/define.js';
import { idempotencyKeyOption, spaceOption } from '../../src/kit/options.js';
import { pipedFieldsHelp } from '../../src/io/output.js';
import { startedView, startWatch } from '../../src/watch/create.js';

export default defineCommand({
  name: 'create',
  summary: 'Start a watch, follow its set-up and show the first brief',
  description:
    'Creates a watch and follows the task that sets it up (plan, steps, output) until its first brief, covering the last 7 days, is written; then shows that brief. ' +
    'On a terminal the milestones update in place; piped, each one is a line on stderr. Ctrl-C stops following (the set-up goes on) and prints the command that resumes; ' +
    "so does --timeout (exit 8). Every value is checked against the API's bounds before anything is sent. Creating a watch counts toward your plan's monthly watch limit. " +
    'Once set up, the watch is printed as `watch show` prints it (piped lines, --json and its keys alike). ' +
    `With --no-wait, the slug and the task are printed at once (--json: the WatchCreated). ${pipedFieldsHelp(startedView)}`,
  arguments: [{ name: 'intent', description: 'one sentence on what to follow', optional: true }],
  options: [
    {
      flags: '--type <type>',
      description:
        'topic (default: the agent finds sources), sources (the given --url) or pages (watch the --url pages for changes)',
    },
    { flags: '--url <url>', description: 'a source or page to watch (repeatable)', repeatable: true },
    { flags: '--alert <phrase>', description: 'tell me when an entry mentions this (repeatable)', repeatable: true },
    { flags: '--cadence <cadence>', description: 'daily (default), weekly or off' },
    {
      flags: '--visibility <visibility>',
      description:
        'public (anyone can find and follow it), unlisted (only with its link) or private (only you); on a terminal kagent asks when this is not given, elsewhere it must be given',
    },
    spaceOption("space to file it in, by id or name (default: the profile's space, else your default space)"),
    { flags: '--no-wait', description: 'return at once with the slug and task id' },
    idempotencyKeyOption('a rerun within 24 h returns the first watch instead of creating another', 'watch'),
  ],
  examples: [
    'kagent watch create "EU rules on AI chips export"',
    'kagent watch create "Rust compiler releases" --type sources --url https://blog.rust-lang.org/ --cadence weekly',
    'kagent watch create "Pricing page changes" --type pages --url https://example.com/pricing --alert "price increase"',
    '# in a script: start it and come back later',
    'kagent watch create "Battery recycling" --visibility private --no-wait --json | jq -r .taskId',
    'kagent watch create "Battery recycling" --visibility private --timeout 30 || kagent task show TASK_ID --follow',
  ],
  run: (ctx, opts, args) => startWatch(ctx, opts, args.intent),
});
