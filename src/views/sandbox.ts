// `kagent sandbox`'s announcement once it listens: its base URL, API key and
// profile, declared once as a field table (the terminal's lines, the piped
// `key<TAB>value` lines, --json's keys and the help), then on stderr how to use it.
import type { Context } from '../context.js';
import { printItem, type ItemView } from '../io/output.js';
import { aside } from '../io/outcome.js';

/** What `--json` prints once the sandbox listens. */
export interface SandboxStarted {
  baseUrl: string;
  apiKey: string;
  /** The profile written for it, or null with --no-save-profile. */
  profile: string | null;
}

export const announcement: ItemView<SandboxStarted> = {
  fields: [
    { key: 'base-url', label: 'Base URL', json: 'baseUrl' },
    { key: 'api-key', label: 'API key', json: 'apiKey' },
    {
      key: 'profile',
      label: 'Profile',
      about: 'none with --no-save-profile',
      json: 'profile',
    },
  ],
};

/** The settings the how-to-use lines name. */
interface Settings {
  state?: string;
  rateLimit: number;
  speed: number;
  faults?: string;
}

/** The announcement on stdout, then (not with --json) how to use the sandbox on stderr. */
export async function announce(
  ctx: Context,
  started: SandboxStarted,
  origin: string,
  settings: Settings,
): Promise<void> {
  const { state, rateLimit, speed, faults } = settings;
  await printItem(ctx, started, announcement);
  await aside(ctx, (f) =>
    [
      '',
      `${f.green('✓')} Sandbox listening on ${f.bold(started.baseUrl)}${state ? ` (state in ${state})` : ''}`,
      started.profile
        ? `  Try it: ${f.bold(`kagent -p ${started.profile} me`)}`
        : `  Try it: ${f.bold(`KAGENT_BASE_URL=${started.baseUrl} KAGENT_API_KEY=${started.apiKey} kagent me`)}`,
      `  Admin routes: ${origin}/_sandbox/   API description: ${started.baseUrl}/openapi.json`,
      `  Rate limit: ${rateLimit > 0 ? `${rateLimit} requests/minute per account` : 'off'}; clock speed ${speed}×${faults ? `; faults ${faults}` : ''}`,
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}
