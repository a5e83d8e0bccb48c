// A crash between the write and the push: the row is durable, so the restarted process sends it, once.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVapidKeys } from '../src/index.js';
import { startTestPushService, type TestPushService } from '../src/testing.js';

const child = path.join(import.meta.dirname, 'crash-child.mjs');
let ps: TestPushService;
let dir: string;

beforeAll(async () => {
  ps = await startTestPushService();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-push-crash-'));
});
afterAll(async () => {
  await ps.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the child until it prints `ready` (then leaves it running) or exits; returns how it ended. */
function run(args: string[], ready?: string) {
  const p = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout.on('data', (d) => {
    out += d;
  });
  p.stderr.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<{ code: number | null; signal: string | null; out: string; err: string }>(
    (resolve) => p.on('exit', (code, signal) => resolve({ code, signal, out, err })),
  );
  const started = ready
    ? new Promise<void>((resolve, reject) => {
        p.stdout.on('data', () => out.includes(ready) && resolve());
        void exited.then((r) => reject(new Error(`child exited early: ${r.err}`)));
      })
    : Promise.resolve();
  return { process: p, exited, started };
}

describe.each(['thread', 'pool'])('crash after the write, before the push (%s transport)', (kind) => {
  it('the restarted process sends the buzz exactly once', async () => {
    const file = path.join(dir, `svc-${kind}.sqlite`);
    const sub = ps.subscriber();
    const mine = () => ps.received.filter((r) => r.subscriber === sub.id);
    const vapid = generateVapidKeys();
    const writer = await run(['write', file, sub.endpoint, sub.keys.p256dh, sub.keys.auth]).exited;
    expect(writer.signal, writer.err).toBe('SIGKILL');
    expect(writer.out).toContain('written');
    expect(mine()).toEqual([]);

    // The restarted service sends it; it is killed once the push settled (the sender printed `sent`).
    const first = run(['send', file, vapid.publicKey, vapid.privateKey, kind], 'sent');
    await first.started;
    expect(mine()).toHaveLength(1);
    expect(mine()[0]!.payload).toMatchObject({
      kind: 'message',
      title: 'ada',
      body: 'Still there?',
      count: 1,
    });
    first.process.kill('SIGKILL');
    await first.exited;

    // A second restart finds nothing left to send.
    const second = await run(['check', file, vapid.publicKey, vapid.privateKey, kind]).exited;
    expect(second.code, second.err).toBe(0);
    expect(JSON.parse(second.out.split('report ')[1]!)).toMatchObject({ sent: 0, suppressed: 0 });
    expect(mine()).toHaveLength(1);
    expect(ps.rejected).toEqual([]);
  }, 30_000);
});
