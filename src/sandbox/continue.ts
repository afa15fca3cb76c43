// `Expect: 100-continue` (curl -T sends it for uploads): the client waits for
// "100 Continue" before sending its body. The sandbox says "continue" only
// once something actually reads the body, so a refused upload (401, 413,
// 415...) is answered before a byte of it is sent. Until then the answer
// carries `Connection: close`: an unsent body cannot be skipped on a kept-alive connection.
import type { IncomingMessage, ServerResponse } from 'node:http';

const waiting = new WeakMap<IncomingMessage, () => void>();

/** Called by the server for every request, before anything else. */
export function holdContinue(req: IncomingMessage, res: ServerResponse): void {
  if (!/100-continue/i.test(req.headers.expect ?? '')) return;
  res.setHeader('connection', 'close');
  waiting.set(req, () => {
    waiting.delete(req);
    if (res.headersSent) return;
    res.removeHeader('connection');
    res.writeContinue();
  });
}

/** Called before reading a request body: a waiting client is told to send it now. */
export function expectBody(req: IncomingMessage): void {
  waiting.get(req)?.();
}
