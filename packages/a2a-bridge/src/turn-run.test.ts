// doc3's polling back-off: an agent without streaming is read at once, then after 1 s, 2 s, 4 s ... and
// never less often than every 30 s. The engine's wait is injected, so no test waits 30 real seconds.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/agents.js';
import { type Harness, makeHarness } from '../test/harness.js';
import { createBridge } from './bridge.js';

let server: TestServer;
let h: Harness;
beforeAll(async () => {
  server = await startTestServer('v10');
});
afterAll(() => server.close());
afterEach(() => h?.cleanup());

describe('polling a task (an agent without streaming)', () => {
  it('backs off by doubling from 1 s and is capped at 30 s (the defaults, doc3 Limits)', async () => {
    h = await makeHarness(server.url('poll'));
    const waits: number[] = [];
    const stop = new AbortController();
    // The engine's defaults (no pollInitialMs / pollMaxMs given); every wait is recorded, none is waited.
    const bridge = createBridge({
      link: h.link,
      state: h.state,
      outbox: h.outbox,
      wait: async (ms) => {
        waits.push(ms);
        if (waits.length === 9) stop.abort();
      },
    });
    // The agent stays `working` far longer than the test: only the delays between its reads matter here.
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: 'slow 5000' });
    await bridge.step(h.agent, stop.signal);

    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000]);
    // Each wait was followed by a read of the task: one at once, then one after every wait but the last.
    const reads = server.calls.filter((c) => c.path === 'poll' && c.method === 'GetTask');
    expect(reads.length).toBe(9);
  });
});
