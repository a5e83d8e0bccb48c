// A client that never reads its event stream: the service ends that stream, its memory stays bounded, and a
// reading stream of the same person keeps getting every message.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServiceProcess, startService } from '../src/service.js';
import { runSlowReader } from '../src/slow-reader.js';

let svc: ServiceProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-slow-'));
  svc = await startService({
    dataDir,
    env: { SVC_MCP_RATE_BURST: '100000', SVC_MCP_RATE_PER_MINUTE: '100000' },
  });
});

afterAll(async () => {
  await svc?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// More than the loopback socket buffers (a few MB) plus the service's bound (1 MiB) must be written.
const WRITE = 10 * 1024 * 1024;

it.each(['person', 'host'] as const)('ends a %s stream whose client never reads', async (stream) => {
  const r = await runSlowReader({ svc, stream, writeBytes: WRITE });
  expect({ gotAll: r.healthyStreamGotAll, cut: r.healthyStreamCut }).toEqual({ gotAll: true, cut: false });
  expect(r.ended).not.toBe('still-open');
  // Before the bound the stalled client read back everything written (the service had buffered it all).
  expect(r.bytesRead).toBeLessThan(r.writtenBytes * 0.8);
});
