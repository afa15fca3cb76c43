// What `kagent auth status` and `kagent auth login --json` report about the login.
import type { Me } from '../api/shapes.js';
import type { Context, ValueSource } from '../context.js';

/** What `auth status` (and `auth login --json`) report. */
export interface AuthStatus {
  profile: string;
  profileSource: ValueSource;
  configPath: string;
  baseUrl: string | null;
  baseUrlSource: ValueSource;
  apiKey: string | null;
  apiKeySource: ValueSource;
  authenticated: boolean;
  user: Me | null;
}

export function statusOf(ctx: Context, user: Me | null, masked: (key: string) => string): AuthStatus {
  const { config } = ctx;
  return {
    profile: config.profile,
    profileSource: config.profileSource,
    configPath: config.configPath,
    baseUrl: config.baseUrl ?? null,
    baseUrlSource: config.baseUrlSource,
    apiKey: config.apiKey ? masked(config.apiKey) : null,
    apiKeySource: config.apiKeySource,
    authenticated: user !== null,
    user,
  };
}
