// A loopback HTTP server that answers what a test scripts, for answers the
// sandbox never gives on the commands under test (402, 409, problem documents,
// a hanging reply). It counts what it received.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Scripted {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (or forever with Infinity). */
  delayMs?: number;
}

export interface TinyServer {
  baseUrl: string;
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

export async function tinyServer(answer: (req: IncomingMessage) => Scripted): Promise<TinyServer> {
  const requests: TinyServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    const scripted = answer(req);
    const send = () => {
      const body =
        scripted.body === undefined
          ? ''
          : typeof scripted.body === 'string'
            ? scripted.body
            : JSON.stringify(scripted.body);
      res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
      res.end(body);
    };
    if (scripted.delayMs === Infinity) return;
    if (scripted.delayMs) setTimeout(send, scripted.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
