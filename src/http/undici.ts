// The two parts of undici kagent uses, behind one import: the bundle then keeps
// them (and the undici core they share) in one chunk instead of three files,
// each of which Node's ESM loader would resolve, read and link on its own.
// The proxy agent is a third, loaded only when a proxy variable applies: in the
// CommonJS bundle (dist/undici.cjs) its modules are wrapped and run on first
// call, so without a proxy they are never evaluated.
export { default as Agent } from 'undici/lib/dispatcher/agent.js';
export { default as request } from 'undici/lib/api/api-request.js';

export async function loadProxyAgent(): Promise<typeof import('undici').ProxyAgent> {
  return (await import('undici/lib/dispatcher/proxy-agent.js')).default;
}
