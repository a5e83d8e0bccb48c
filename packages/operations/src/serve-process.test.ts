// The process loop around a service: exit codes of a failed start, and a shutdown that repeated signals
// never cut short (copies of one press ignored, a second press told to wait, a third stops at once).
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { OperationsError } from './errors.js';
import { SERVE_EXIT, type ServeOptions, serveUntilStopped } from './serve-process.js';

// A signal nothing else in the test process listens to, delivered with process.emit (no real signal).
const SIGNAL = 'SIGUSR2';
const target = { port: 8787, host: '127.0.0.1', dataDir: '/srv/svc' };

function service() {
  const lines: { msg: string; level: number; signal?: string }[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  let finish: () => void = () => {};
  let closeCalled: () => void = () => {};
  const closing = new Promise<void>((resolve) => {
    closeCalled = resolve;
  });
  const svc = {
    logger,
    close: () => {
      closeCalled();
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    },
  };
  return { svc, lines, closing, finishClose: () => finish() };
}

function run(
  start: () => Promise<{ logger: pino.Logger; close(): Promise<void> }>,
  extra: Partial<ServeOptions>,
) {
  let stderr = '';
  const exits: number[] = [];
  const done = serveUntilStopped(start, target, {
    stderr: (s) => {
      stderr += s;
    },
    signals: [SIGNAL],
    exit: (code) => exits.push(code),
    ...extra,
  });
  return { done, exits, stderr: () => stderr };
}

describe('serveUntilStopped', () => {
  it.each([
    [
      Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }),
      SERVE_EXIT.CONFIG,
      /Port 8787 is already in use/,
    ],
    [
      Object.assign(new Error('listen EACCES'), { code: 'EACCES', syscall: 'listen' }),
      SERVE_EXIT.CONFIG,
      /Not allowed to listen on port 8787/,
    ],
    [
      new OperationsError('INSTANCE_RUNNING', 'Another Screen Service is already serving'),
      SERVE_EXIT.REFUSED,
      /already serving/,
    ],
    [new Error('boom'), SERVE_EXIT.FAILURE, /failed to start \(data in \/srv\/svc\): Error: boom/],
  ])('a failed start (%s) exits %i with one message', async (err, code, message) => {
    const before = process.listenerCount(SIGNAL);
    const r = run(() => Promise.reject(err), {});
    expect(await r.done).toBe(code);
    expect(r.stderr()).toMatch(message);
    expect(process.listenerCount(SIGNAL)).toBe(before);
  });

  it('copies of one press (terminal and npm) stop it once, cleanly', async () => {
    const s = service();
    const r = run(() => Promise.resolve(s.svc), { samePressMs: 60_000 });
    // A signal during start-up is kept: the service stops as soon as it has started.
    process.emit(SIGNAL, SIGNAL);
    await s.closing;
    process.emit(SIGNAL, SIGNAL);
    process.emit(SIGNAL, SIGNAL);
    s.finishClose();
    expect(await r.done).toBe(SERVE_EXIT.OK);
    expect(s.lines.map((l) => l.msg)).toEqual(['shutting down', 'stopped']);
    expect(s.lines[0]).toMatchObject({ signal: SIGNAL });
    expect(r.exits).toEqual([]);
  });

  it('a second press says it is still shutting down and does not cut it short; a third stops at once', async () => {
    const s = service();
    const r = run(() => Promise.resolve(s.svc), { samePressMs: 0 });
    await new Promise((resolve) => setImmediate(resolve));
    process.emit(SIGNAL, SIGNAL);
    await s.closing;
    process.emit(SIGNAL, SIGNAL);
    expect(s.lines.map((l) => l.msg)).toEqual([
      'shutting down',
      'still shutting down: in-flight requests are finishing (a few seconds at most); send it once more to stop at once',
    ]);
    expect(r.exits).toEqual([]);
    process.emit(SIGNAL, SIGNAL);
    expect(r.exits).toEqual([SERVE_EXIT.FAILURE]);
    expect(s.lines.at(-1)).toMatchObject({
      msg: 'stopping at once on a third signal: in-flight requests are cut',
      level: 50,
    });
    s.finishClose();
    expect(await r.done).toBe(SERVE_EXIT.OK);
  });

  it('a failing shutdown is logged and exits 1', async () => {
    const logger = pino({ level: 'silent' });
    const r = run(() => Promise.resolve({ logger, close: () => Promise.reject(new Error('disk gone')) }), {});
    await new Promise((resolve) => setImmediate(resolve));
    process.emit(SIGNAL, SIGNAL);
    expect(await r.done).toBe(SERVE_EXIT.FAILURE);
  });
});
