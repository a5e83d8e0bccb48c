// The phone's network in the browser tests: a TCP gate in front of the service that the app reaches it through.
import { connect, createServer, type Server, type Socket } from 'node:net';

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

/** A port nothing listens on right now (the service takes it behind the gate). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
