// Long-polls opened and abandoned: no waiter, listener or descriptor outlives its client.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServiceProcess, startService } from '../src/service.js';
import { runWaiterLeak } from '../src/waiter-leak.js';

let svc: ServiceProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-waiters-'));
  svc = await startService({ dataDir });
});

afterAll(async () => {
  await svc?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('releases 200 abandoned svc_answers waiters at once and the next answer still arrives', async () => {
  const r = await runWaiterLeak({ svc, connections: 5, pollsPerConnection: 40 });
  expect(r.opened).toBe(200);
  expect(r.waitersPeak).toBe(200);
  expect(r.waitersAfter).toBe(0);
  // Well before the 25 s wait would have ended by itself.
  expect(r.releaseMs).toBeLessThan(5_000);
  expect(r.fdsAfter).toBeLessThanOrEqual(r.fdsBefore + 2);
  expect(r.nextAnswerDelivered).toBe(true);
});
