// A client that opens the person's event stream (or a host's message stream) and never reads it, while
// the agent writes large messages: the service must end that stream instead of buffering without bound.
import { request } from './http.js';
import type { ServiceProcess } from './service.js';
import { APP, CONNECT, pairNewConnection, signUpPeople } from './setup.js';
import { openSse } from './sse.js';

export interface SlowReaderOptions {
  svc: ServiceProcess;
  /** Which stream stalls: the person's app stream or a host's message stream. */
  stream: 'person' | 'host';
  /** Bytes the agent writes in total (each message 4,000 characters). */
  writeBytes: number;
}

export interface SlowReaderResult {
  /** How the stream ended once we started reading again: `end`/`reset` = the service ended it. */
  ended: 'end' | 'reset' | 'closed' | 'still-open';
  /** Bytes the client could read after resuming (what had been sent before the service gave up). */
  bytesRead: number;
  rssBeforeBytes: number;
  rssAfterBytes: number;
  /** A reading stream opened at the same time kept working (got every message written). */
  healthyStreamGotAll: boolean;
  /** The reading stream was ended by the service (it fell more than the bound behind). */
  healthyStreamCut: boolean;
  writtenBytes: number;
}

const TEXT_CHARS = 4000;

/**
 * Opens a stalled stream and a reading one for the same person, writes `writeBytes` as the person's replies, then resumes the stalled one and reports how it ended.
 */
export async function runSlowReader(o: SlowReaderOptions): Promise<SlowReaderResult> {
  const { svc } = o;
  const [person] = await signUpPeople(svc.base, 1, `slow-${o.stream}`);
  if (!person) throw new Error('no person');
  const kind = o.stream === 'host' ? 'hostfw' : 'mcp';
  const conn = await pairNewConnection(svc.base, person, `slow-${o.stream}`, kind);
  const url = o.stream === 'host' ? `${svc.base}${CONNECT}/messages` : `${svc.base}${APP}/stream`;
  const auth = { authorization: `Bearer ${o.stream === 'host' ? conn.token : person.token}` };
  const stalled = await openSse(url, { headers: auth, read: false });
  // Every message number the reading stream saw (`m<n> x...`); a chunk may end inside one, so the tail of
  // the previous chunk is searched again with the next. Concurrent writers land in any order, so the test
  // is "all of them", not "the last one written came last".
  const seen = new Set<number>();
  let tail = '';
  const healthy = await openSse(url, {
    headers: auth,
    onData: (d) => {
      const text = tail + d;
      for (const m of text.matchAll(/m(\d+) x/g)) seen.add(Number(m[1]));
      tail = text.slice(-24);
    },
  });
  let healthyStreamCut = false;
  void healthy.done.then((how) => {
    if (how !== 'closed') healthyStreamCut = true;
  });
  const rssBeforeBytes = svc.sample().rssBytes;
  const count = Math.ceil(o.writeBytes / TEXT_CHARS);
  const filler = 'x'.repeat(TEXT_CHARS - 20);
  let written = 0;
  // The person's replies reach both streams (the person's own app and the agent's host), and are quicker to
  // write than svc_say calls.
  // Four writes at a time: the reading client shares this process, and must not fall a megabyte behind
  // only because the writers starve it of CPU.
  for (let i = 0; i < count; i += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, count - i) }, async (_, j) => {
        const text = `m${i + j} ${filler}`;
        const r = await request(`${svc.base}${APP}/agents/${conn.agentId}/messages`, {
          headers: { authorization: `Bearer ${person.token}` },
          body: { text },
        });
        if (r.status !== 201) throw new Error(`reply answered ${r.status}: ${r.text.slice(0, 200)}`);
        written += TEXT_CHARS;
      }),
    );
  }
  // A loaded machine may take a while to hand the reading client its last megabytes.
  const deadline = Date.now() + 30_000;
  while (seen.size < count && !healthyStreamCut && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const healthyStreamGotAll = seen.size === count;
  const rssAfterBytes = svc.sample().rssBytes;
  stalled.resume();
  const ended = await Promise.race([
    stalled.done,
    new Promise<'still-open'>((r) => setTimeout(() => r('still-open'), 3000)),
  ]);
  const bytesRead = stalled.bytes();
  stalled.close();
  healthy.close();
  return {
    ended,
    bytesRead,
    rssBeforeBytes,
    rssAfterBytes,
    healthyStreamGotAll,
    healthyStreamCut,
    writtenBytes: written,
  };
}
