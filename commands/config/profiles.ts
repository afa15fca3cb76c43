import { defineCommand } from '../../src/kit/define.js';
import { readConfigFile } from '../../src/config/store.js';
import * as output from '../../src/io/output.js';

interface ProfileRow {
  name: string;
  current: boolean;
  baseUrl: string | null;
  loggedIn: boolean;
}

const columns: output.Column<ProfileRow>[] = [
  { header: 'name', value: (row) => row.name },
  { header: 'current', value: (row) => row.current, kind: 'bool' },
  { header: 'base url', value: (row) => row.baseUrl, flex: true },
  { header: 'key', value: (row) => row.loggedIn, kind: 'bool', about: 'true/false: has an API key' },
];

export default defineCommand({
  name: 'profiles',
  summary: 'List the saved profiles',
  description: output.pipedRowsHelp(columns),
  examples: ['kagent config profiles', 'kagent config profiles --json'],
  async run(ctx) {
    const file = readConfigFile(ctx.config.configPath);
    const rows: ProfileRow[] = Object.entries(file.profiles).map(([name, profile]) => ({
      name,
      current: name === (file.currentProfile ?? 'default'),
      baseUrl: profile.baseUrl ?? null,
      loggedIn: profile.apiKey !== undefined,
    }));
    await output.printList(ctx, rows, {
      columns,
      empty: 'No profiles yet: log in with `kagent auth login`.',
    });
  },
});
