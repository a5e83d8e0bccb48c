import { expect, it } from 'vitest';
import { createOnceSender } from './result-channel.js';
import { awaitRunEnd, createInFlight } from './run-end.js';

/** A timer the test fires by hand. */
function manualTimers() {
  const pending: (() => void)[] = [];
  return {
    set: (fn: () => void) => pending.push(fn),
    clear: () => {},
    fire: () => {
      for (const fn of pending.splice(0)) fn();
    },
  };
}

it('ends when every loop ended, with nothing unfinished', async () => {
  const inflight = createInFlight();
  const done = inflight.start('show');
  const loop = Promise.resolve().then(done);
  expect(await awaitRunEnd([loop], 60_000, inflight, manualTimers())).toEqual({ cut: false, unfinished: {} });
});

it('counts the calls still in flight when the grace runs out, and sends one result', async () => {
  const inflight = createInFlight();
  const timers = manualTimers();
  const doneShow = inflight.start('show');
  inflight.start('tap'); // never settles
  inflight.start('tap');
  let release = () => {};
  const stuck = new Promise<void>((r) => {
    release = r;
  });
  doneShow();
  const ending = awaitRunEnd([stuck, Promise.resolve()], 70_000, inflight, timers);
  timers.fire();
  const end = await ending;
  expect(end).toEqual({ cut: true, unfinished: { tap: 2 } });

  // The stuck loop ends after the cut and its driver code finishes too: the parent still gets one result.
  const sent: unknown[] = [];
  const result = createOnceSender<unknown>((m, flushed) => {
    sent.push(m);
    flushed(null);
  });
  const byCut = result.send({ type: 'result', end });
  release();
  await stuck;
  const byLoop = result.send({ type: 'result', end: { cut: false, unfinished: {} } });
  expect([await byCut, await byLoop]).toEqual([true, false]);
  expect(sent).toEqual([{ type: 'result', end: { cut: true, unfinished: { tap: 2 } } }]);
});

it('settles a call once even when its end is reported twice', () => {
  const inflight = createInFlight();
  const done = inflight.start('answers');
  inflight.start('answers');
  done();
  done();
  expect(inflight.now()).toEqual({ answers: 1 });
});
