// A free TCP port on 127.0.0.1, for tests and benches that must name a port before the server starts.
import { createServer } from 'node:net';

/** Binds port 0 on 127.0.0.1, reads the port the system gave, and closes it again. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
