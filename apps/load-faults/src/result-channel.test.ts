import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createOnceSender, receiveResult } from './result-channel.js';

type Msg = { type: string; n?: number };
const pick = (m: unknown) => ((m as Msg).type === 'result' ? (m as Msg).n : undefined);

describe('createOnceSender', () => {
  it('sends the first message only, and resolves once it was flushed', async () => {
    const flushes: (() => void)[] = [];
    const sent: Msg[] = [];
    const sender = createOnceSender<Msg>((m, done) => {
      sent.push(m);
      flushes.push(() => done(null));
    });
    // The deadline's timer and the last call's return both finish the run at once.
    const a = sender.send({ type: 'result', n: 1 });
    const b = sender.send({ type: 'result', n: 2 });
    expect(await b).toBe(false);
    let flushed = false;
    void a.then(() => {
      flushed = true;
    });
    await Promise.resolve();
    expect(flushed).toBe(false); // not before the channel took it
    flushes[0]?.();
    expect(await a).toBe(true);
    expect(sent).toEqual([{ type: 'result', n: 1 }]);
    expect(sender.sent()).toBe(true);
  });

  it('rejects when the channel fails', async () => {
    const sender = createOnceSender<Msg>((_m, done) => done(new Error('channel closed')));
    await expect(sender.send({ type: 'result' })).rejects.toThrow('channel closed');
  });
});

describe('receiveResult', () => {
  const fake = () => new EventEmitter() as EventEmitter & Parameters<typeof receiveResult>[0];

  it('takes the first result and reports later ones as duplicates', async () => {
    const child = fake();
    let duplicates = 0;
    const p = receiveResult(child, {
      pick,
      timeoutMs: 60_000,
      name: 'driver 1',
      onDuplicate: () => duplicates++,
    });
    child.emit('message', { type: 'ready' });
    child.emit('message', { type: 'result', n: 7 });
    child.emit('message', { type: 'result', n: 8 });
    child.emit('close', 0, null);
    expect(await p).toBe(7);
    expect(duplicates).toBe(1);
  });

  it('fails when the driver ends without a result, even with exit code 0', async () => {
    const child = fake();
    const p = receiveResult(child, { pick, timeoutMs: 60_000, name: 'driver 2' });
    child.emit('close', 0, null);
    await expect(p).rejects.toThrow('driver 2 exited (code 0) without sending its result');
  });

  it('fails when no result came before the deadline', async () => {
    const child = fake();
    let fire = () => {};
    const p = receiveResult(child, {
      pick,
      timeoutMs: 1234,
      name: 'driver 3',
      setTimer: (fn) => {
        fire = fn;
        return 0;
      },
      clearTimer: () => {},
    });
    fire();
    await expect(p).rejects.toThrow('driver 3 sent no result within 1234 ms');
  });

  it('does not crash the parent when a driver fails before anyone awaits its result', async () => {
    const child = fake();
    const p = receiveResult(child, { pick, timeoutMs: 60_000, name: 'driver 4' });
    child.emit('close', 1, null);
    await new Promise((r) => setTimeout(r, 10)); // an unhandled rejection would fail the test run here
    await expect(p).rejects.toThrow('driver 4 exited (code 1)');
  });
});

describe('a real driver process', () => {
  const FIXTURE = fileURLToPath(new URL('../test/fixtures/driver-exit.mjs', import.meta.url));
  const busy = (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {}
  };

  it('delivers a multi-megabyte result although the driver exits right after sending it', async () => {
    const child = fork(FIXTURE, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const p = receiveResult(child, {
      pick: (m) =>
        (m as Msg).type === 'result' ? (m as { result: { latencies: number[] } }).result : undefined,
      timeoutMs: 30_000,
      name: 'driver',
    });
    child.send({ mode: 'send', size: 400_000 });
    busy(300); // the parent is busy while the driver writes and exits: the message waits in the pipe
    const result = await p;
    expect(result.latencies.length).toBe(400_000);
    expect(result.latencies[399_999]).toBe(399_999.5);
  });

  it('rejects when a real driver exits 0 without a result', async () => {
    const child = fork(FIXTURE, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const p = receiveResult(child, { pick, timeoutMs: 30_000, name: 'driver' });
    child.send({ mode: 'silent' });
    await expect(p).rejects.toThrow('driver exited (code 0) without sending its result');
  });
});
