// The ways through a proxy, as curl goes: an http:// service is asked of the
// proxy with an absolute URI (`GET http://host/path`, options made here), an
// https:// one through a CONNECT tunnel, inside which the TLS session with the
// service runs (the agent made here opens it). Credentials in the proxy's URL
// become Proxy-Authorization. Which proxy applies is proxy.ts's business;
// transport.ts sends.
import type { Agent, OutgoingHttpHeaders, RequestOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { failure, proxyRefusal } from './failures.js';

export type HttpModule = typeof import('node:http');

const client = (protocol: string) =>
  process.getBuiltinModule(protocol === 'https:' ? 'node:https' : 'node:http') as HttpModule;

/** The request line and headers for asking an http:// `url` of the proxy. */
export function forwardOptions(proxy: URL, url: URL, headers: Record<string, string>): RequestOptions {
  return {
    ...where(proxy),
    protocol: proxy.protocol,
    path: url.href,
    headers: { ...headers, host: url.host, ...authorization(proxy) },
  };
}

/**
 * A keep-alive https agent whose connections are tunnels through `proxy`: CONNECT
 * must be answered within `timeoutMs` (the time allowed for an answer), and
 * anything but 200 is the proxy's refusal (407: credentials asked for).
 */
export function tunnelAgent(proxy: URL, timeoutMs: number, keepAliveMs: number): Agent {
  const https = process.getBuiltinModule('node:https');
  const tls = process.getBuiltinModule('node:tls');
  const opening = new Set<{ destroy(): void }>();
  class TunnelAgent extends https.Agent {
    override createConnection(
      options: RequestOptions & { servername?: string },
      done?: (error: Error | null, socket: Duplex) => void,
    ): undefined {
      const host = options.host?.includes(':') ? `[${options.host}]` : options.host;
      const target = `${host}:${options.port ?? 443}`;
      const headers: OutgoingHttpHeaders = { host: target, ...authorization(proxy) };
      const connect = client(proxy.protocol).request({
        ...where(proxy),
        method: 'CONNECT',
        path: target,
        headers,
        agent: false,
      });
      opening.add(connect);
      const timer = setTimeout(
        () => connect.destroy(failure('UND_ERR_HEADERS_TIMEOUT', `the proxy opened no tunnel within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const settle = (error: Error | null, socket?: Duplex) => {
        clearTimeout(timer);
        opening.delete(connect);
        done?.(error, socket as Duplex);
      };
      connect.once('error', (error) => settle(error));
      connect.once('connect', (response, socket, head) => {
        if (response.statusCode !== 200) {
          socket.destroy();
          settle(proxyRefusal(response.statusCode ?? 0));
          return;
        }
        if (head.length > 0) socket.unshift(head);
        settle(
          null,
          tls.connect({ ...(options as object), socket, servername: options.servername ?? options.host ?? undefined }),
        );
      });
      connect.end();
      return undefined;
    }

    override destroy(): void {
      for (const connect of opening) connect.destroy();
      opening.clear();
      super.destroy();
    }
  }
  return new TunnelAgent({ keepAlive: true, timeout: keepAliveMs });
}

function where(proxy: URL): { hostname: string; port: number } {
  const hostname = proxy.hostname.replace(/^\[(.*)\]$/, '$1');
  return { hostname, port: Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80)) };
}

function authorization(proxy: URL): Record<string, string> {
  if (proxy.username === '' && proxy.password === '') return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}
