// The phone's network in the browser tests: a TCP gate in front of the service that the app reaches it through.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { freePort } from '../../../config/free-port.js';

export { freePort };

/**
 * The phone's network as a gate in front of the service: the app reaches the service only through it, so
 * closed it refuses every connection (the page's, its service worker's) and cuts the open ones. Playwright's
 * offline emulation does not reach a service worker Chromium wakes before any page (at a restart).
 */
export function networkGate(target: number) {
  let open = true;
  const live = new Set<Socket>();
  const server: Server = createServer((phone) => {
    if (!open) return void phone.destroy();
    const upstream = connect(target, '127.0.0.1');
    for (const s of [phone, upstream]) {
      live.add(s);
      s.on('error', () => undefined).on('close', () => live.delete(s));
    }
    phone.pipe(upstream).pipe(phone);
    phone.on('close', () => upstream.destroy());
    upstream.on('close', () => phone.destroy());
  });
  return {
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
      ),
    set(on: boolean) {
      open = on;
      if (!on) for (const s of live) s.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Loses the answer of the first POST to `urlPattern` on the way back to `page` (the request reached the
 * service and was written). Through the DevTools protocol's Fetch, which sees what a service worker passes
 * on (a route of Playwright does not). `dropped()` counts the answers lost; `stop()` lets everything through.
 */
export async function dropFirstPostAnswer(context: BrowserContext, page: Page, urlPattern: string) {
  const cdp = await context.newCDPSession(page);
  let dropped = 0;
  cdp.on('Fetch.requestPaused', (e: { requestId: string; request: { method: string } }) => {
    const drop = e.request.method === 'POST' && dropped === 0;
    if (drop) dropped++;
    void cdp
      .send(drop ? 'Fetch.failRequest' : 'Fetch.continueRequest', {
        requestId: e.requestId,
        ...(drop ? { errorReason: 'ConnectionReset' } : {}),
      })
      // A request a reload cancelled has no interception left to continue.
      .catch(() => undefined);
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern, requestStage: 'Response' }] });
  return {
    dropped: () => dropped,
    async stop() {
      await cdp.send('Fetch.disable');
      await cdp.detach();
    },
  };
}
