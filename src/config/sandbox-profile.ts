// The profile `kagent sandbox` leaves behind, so that `kagent -p sandbox …` reaches
// it. "sandbox" is also a natural name for a real staging profile: a saved
// profile is replaced without a question only when the sandbox saved it itself
// (its `sandbox` mark, dropped when anything else writes its URL or key).
import type { Context } from '../context.js';
import { configDir, configPath } from './paths.js';
import { readConfigFile, writeProfile } from './store.js';

export const SANDBOX_PROFILE = 'sandbox';

/**
 * Before the sandbox starts: a saved profile `name` it may not replace without a
 * question (one the sandbox did not save), as the question's text; undefined when
 * there is none or the sandbox saved it.
 */
export function profileToClaim(
  ctx: Context,
  name: string,
): { message: string; action: string; hint: string } | undefined {
  const existing = readConfigFile(configPath(configDir(ctx.io.env))).profiles[name];
  if (!existing || existing.sandbox) return undefined;
  const where = existing.baseUrl ? ` (${existing.baseUrl})` : '';
  return {
    message: `A profile "${name}"${where} is saved and was not written by kagent sandbox. Replace it with this sandbox?`,
    action: `replace the saved profile "${name}"${where}`,
    hint: `save the sandbox under another name with --profile NAME, or not at all with --no-save-profile`,
  };
}

/** The profile: base URL, key, the mark, and a pacing rate that matches the sandbox's limit. */
export async function writeSandboxProfile(
  ctx: Context,
  name: string,
  sandbox: { baseUrl: string; apiKey: string; rateLimit: number },
): Promise<void> {
  // With the limit off, pace at 1000 requests a second rather than at the contract's 60 a minute.
  await writeProfile(
    configDir(ctx.io.env),
    name,
    {
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      rateLimit: sandbox.rateLimit > 0 ? sandbox.rateLimit : 60_000,
      sandbox: true,
    },
    { signal: ctx.signal },
  );
}
