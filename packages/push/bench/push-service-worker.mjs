// The benchmark's push service in its own thread, so decrypting and checking each push (the push vendor's
// work) does not eat the sender's event loop. Reports each arrival with an absolute time.
import { parentPort } from 'node:worker_threads';
import { startTestPushService } from '../dist/testing.js';

const ps = await startTestPushService();
let reported = 0;
setInterval(() => {
  const fresh = ps.received.slice(reported);
  reported = ps.received.length;
  if (fresh.length > 0 || ps.rejected.length > 0) {
    parentPort.postMessage({
      type: 'arrivals',
      arrivals: fresh.map((r) => ({ message_id: r.payload?.message_id, at: performance.timeOrigin + r.at })),
      rejected: ps.rejected.length,
    });
  }
}, 5).unref();
parentPort.on('message', async (m) => {
  if (m.type === 'subscribers')
    parentPort.postMessage({
      type: 'subscribers',
      id: m.id,
      subs: Array.from({ length: m.n }, () => ps.subscriber()),
    });
  if (m.type === 'close') {
    await ps.close();
    process.exit(0);
  }
});
parentPort.postMessage({ type: 'ready', url: ps.url });
