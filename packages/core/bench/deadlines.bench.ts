// Benchmark (issue 40): deadline accuracy with 10,000 pending deadlines (how long after its time each default
// lands, p50/p99/max, the sweeper on real timers over a real SQLite file) and the cost of a receipt on the tap
// use case (taps per second with receipts against the same use case without them, in the same run).

import { createDeadlineSweeper, createPersonThreads, type PersonThreads } from '@screen-service/core/threads';
import { createTestCore, seedConnection, seedUser } from '@screen-service/test-kit';

const PENDING = Number(process.env.BENCH_DEADLINES ?? 10_000);
const SPREAD_MS = Number(process.env.BENCH_SPREAD_MS ?? 10_000);
const TAP_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = 16;
const LINES = 'choose@lunch "Lunch?" Soup|Salad';
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function person(core: ReturnType<typeof createTestCore>) {
  const user = await seedUser(core.store);
  const { token, agents } = await seedConnection(core.store, user.id, ['bench']);
  return { userId: user.id, agentId: agents[0]!.id, principal: await core.connectionAuth.verify(token) };
}

async function deadlineAccuracy() {
  const core = createTestCore({ clockMode: 'running', hostMessageRate: { burst: 1e12, perMinute: 1e12 } });
  const p = await person(core);
  const made = Date.now();
  const base = made + 60_000;
  let next = 0;
  const show = async () => {
    for (let i = next++; i < PENDING; i = next++) {
      const at = new Date(base + Math.floor((i * SPREAD_MS) / PENDING)).toISOString();
      await core.threadOps.show(p.principal, { lines: LINES, deadline: { at, default: { lunch: 'Soup' } } });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, show));
  const madeMs = Date.now() - made;
  if (Date.now() > base) throw new Error(`making ${PENDING} deadlines took ${madeMs} ms, past their time`);
  const late: number[] = [];
  let done: () => void;
  const all = new Promise<void>((r) => {
    done = r;
  });
  const sweeper = createDeadlineSweeper({
    store: core.store,
    notifier: core.notifier,
    now: core.clock,
    onStep: (r) => {
      // Decided = committed: this runs after the settling transaction.
      late.push(Date.now() - (r.at - r.lateMs));
      if (late.length === PENDING) done();
    },
  });
  // The sweeper's timer does not hold a process open (a server's socket does): this one does, here.
  const alive = setInterval(() => {}, 1000);
  sweeper.start();
  await all;
  clearInterval(alive);
  await sweeper.stop();
  core.close();
  const s = late.sort((a, b) => a - b);
  return {
    pending: PENDING,
    madeMs,
    p50: pct(s, 0.5),
    p99: pct(s, 0.99),
    max: s.at(-1)!,
    within1s: s.filter((x) => x <= 1000).length,
  };
}

async function tapCost() {
  const core = createTestCore({ clockMode: 'running', hostMessageRate: { burst: 1e12, perMinute: 1e12 } });
  const p = await person(core);
  // The person's tap use case (what the person's API calls), with and without receipts, over one store.
  const withReceipts = createPersonThreads({
    store: core.store,
    notifier: core.notifier,
    receipts: core.receipts,
  });
  const plain = createPersonThreads({ store: core.store, notifier: core.notifier });
  const screens = await Promise.all(
    Array.from(
      { length: CONCURRENCY },
      async () => (await core.threadOps.show(p.principal, { lines: LINES })).screen_id,
    ),
  );
  await core.receipts.signer();
  const rate = async (threads: PersonThreads) => {
    let n = 0;
    const until = Date.now() + TAP_SECONDS * 1000;
    await Promise.all(
      screens.map(async (screen) => {
        while (Date.now() < until) {
          await threads.tap(p.userId, p.agentId, {
            screen_id: screen,
            event: { id: 'lunch', value: 'Soup' },
          });
          n++;
        }
      }),
    );
    return n / TAP_SECONDS;
  };
  // Alternated twice so neither side gets the warmer half of the run.
  const plain1 = await rate(plain);
  const signed1 = await rate(withReceipts);
  const plain2 = await rate(plain);
  const signed2 = await rate(withReceipts);
  core.close();
  const plainRate = (plain1 + plain2) / 2;
  const signedRate = (signed1 + signed2) / 2;
  return {
    plainPerS: Math.round(plainRate),
    receiptsPerS: Math.round(signedRate),
    ratio: signedRate / plainRate,
  };
}

const accuracy = await deadlineAccuracy();
console.log(
  `deadlines: ${accuracy.pending} pending (made in ${accuracy.madeMs} ms, due over ${SPREAD_MS} ms): decided after their time p50 ${accuracy.p50} ms, p99 ${accuracy.p99} ms, max ${accuracy.max} ms; within 1 s: ${accuracy.within1s}/${accuracy.pending}`,
);
const cost = await tapCost();
console.log(
  `receipts on the tap use case (in-process, SQLite, ${CONCURRENCY} concurrent): ${cost.receiptsPerS} taps/s with receipts vs ${cost.plainPerS} taps/s without = ${(cost.ratio * 100).toFixed(1)}% (the HTTP tap against a plain handler is apps/server's thread-bench)`,
);
if (accuracy.p99 > 1000) process.exitCode = 1;
