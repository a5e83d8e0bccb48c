// The benchmark's push service in its own process: decrypting and checking each push (the push vendor's
// work) is not counted in the sender's CPU, though it shares the machine's cores as on any one host.
// Reports each arrival (the request fully read, before decrypting) with an absolute time.
import { startTestPushService } from '../dist/testing.js';

const ps = await startTestPushService();
let reported = 0;
setInterval(() => {
  const fresh = ps.received.slice(reported);
  if (fresh.length > 0) {
    process.send({
      type: 'arrivals',
      arrivals: fresh.map((r) => ({
        message_id: r.payload?.message_id,
        kind: r.payload?.kind,
        screen_id: r.payload?.screen_id,
        answer: r.payload?.answer,
        subscriber: r.subscriber,
        at: performance.timeOrigin + r.at,
      })),
      rejected: ps.rejected.length,
    });
  }
  // Keep memory flat over long runs: what was reported is not needed again.
  ps.received.splice(0, ps.received.length);
  reported = 0;
}, 5).unref();
process.on('message', async (m) => {
  if (m.type === 'subscribers')
    process.send({ type: 'subscribers', id: m.id, subs: Array.from({ length: m.n }, () => ps.subscriber()) });
  if (m.type === 'cpu') {
    const c = process.cpuUsage();
    process.send({ type: 'cpu', id: m.id, ms: (c.user + c.system) / 1000 });
  }
  if (m.type === 'close') {
    await ps.close();
    process.exit(0);
  }
});
process.send({ type: 'ready', url: ps.url });
