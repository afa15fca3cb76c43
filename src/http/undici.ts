// The two parts of undici kagent uses, behind one import: the bundle then keeps
// them (and the undici core they share) in one chunk instead of three files,
// each of which Node's ESM loader would resolve, read and link on its own.
// The proxy agent is a third, loaded only when a proxy variable applies.
export { default as Agent } from 'undici/lib/dispatcher/agent.js';
export { default as request } from 'undici/lib/api/api-request.js';

/**
 * `tunnelTimeoutMs`: how long the proxy may take to answer CONNECT. undici's own default is
 * its headers timeout, five minutes, and the proxy agent offers no option for it.
 */
export async function loadProxyAgent(): Promise<
  (options: import('undici').ProxyAgent.Options, tunnelTimeoutMs: number) => import('undici').Dispatcher
> {
  const [{ default: ProxyAgent }, { default: Pool }, { default: connect }] = await Promise.all([
    import('undici/lib/dispatcher/proxy-agent.js'),
    import('undici/lib/dispatcher/pool.js'),
    import('undici/lib/api/api-connect.js'),
  ]);
  // The proxy agent opens tunnels with its client's `connect()`, an API undici's package root
  // adds to every dispatcher; kagent loads the parts without the root, so the client gets it here.
  return (options, tunnelTimeoutMs) => {
    const clientFactory = (origin: URL, clientOptions: object) =>
      Object.assign(new Pool(origin, { ...clientOptions, headersTimeout: tunnelTimeoutMs }), { connect });
    return new ProxyAgent({ ...options, clientFactory });
  };
}
