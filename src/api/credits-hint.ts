// The hint of a run that the first 402 CREDITS_EXHAUSTED stopped, shared by every
// command that loops over paid requests (lib upload, lib sync, media start with
// several links): here, below both upload/ and kit/, so that each may use it.
import type { Me } from './shapes.js';

/**
 * The hint of a run that the first 402 CREDITS_EXHAUSTED stopped (lib upload, lib sync, media start with several
 * links): how many were not attempted ("3 files", "2 links"), and GET /me's credits by pool.
 */
export async function creditsStopHint(notAttempted: number, noun: string, getMe: () => Promise<Me>): Promise<string> {
  const left = `${notAttempted} ${noun}${notAttempted === 1 ? ' was' : 's were'} not attempted`;
  try {
    const me = await getMe();
    const pools = me.credits.pools.map((p) => `${p.pool} ${p.remaining}${p.total !== null ? ` of ${p.total}` : ''}`);
    return `${left}; credits left: ${me.credits.total}${pools.length > 0 ? ` (${pools.join(', ')})` : ''} (kagent me)`;
  } catch {
    return `${left}; see the credits left with \`kagent me\``;
  }
}
