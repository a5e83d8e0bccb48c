// Round trips per call on PostgreSQL (issue 42): how many statements each tool call and each hot path of the
// person's API sends, counted at the driver (every `query` of a pg client, BEGIN and COMMIT included), and
// how many round trips they take: a statement issued while another of the same connection is still on its
// way (pipelined) shares that one's trip. The calls run one at a time, so each count is that call's own.
// Run: npx tsx bench/round-trips.bench.ts [--verbose] (after npm run build).
import { randomBytes } from 'node:crypto';
import { type Core, createCore } from '@screen-service/core';
import { fastHasher, seedConnection, seedUser } from '@screen-service/test-kit';
import pg from 'pg';
import setupPostgres from '../../../config/postgres-setup.ts';
import { createPostgresServices } from '../src/postgres-services.js';
import { createTestDatabase } from '../src/testing.js';

const LINES = 'choose@lunch "Lunch?" Pasta|Salad';
const REPEAT = 20;

// Every statement any pg client of this process sends, with its text, while `counting` is set; `trips`
// counts those sent while their connection had none on its way.
let counting: string[] | null = null;
let trips = 0;
const inFlight = new WeakMap<object, number>();
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function query(this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string; name?: string };
  const callback = args.findIndex((a) => typeof a === 'function');
  const open = inFlight.get(this) ?? 0;
  if (counting) {
    counting.push(
      `${open > 0 ? '+ ' : ''}${typeof first === 'string' ? first : (first.text ?? first.name ?? '?')}`,
    );
    if (open === 0) trips++;
  }
  inFlight.set(this, open + 1);
  const done = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
  if (callback >= 0) {
    const cb = args[callback] as (...a: unknown[]) => unknown;
    args[callback] = (...a: unknown[]) => {
      done();
      return cb(...a);
    };
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  }
  const out = (original as (...a: unknown[]) => unknown).apply(this, args) as Promise<unknown>;
  out.then(done, done);
  return out;
} as typeof original;

/** Statements and round trips of one call of `op` (medians over REPEAT calls), and the last one's statements. */
async function count(op: () => Promise<unknown>): Promise<{ n: number; t: number; texts: string[] }> {
  const ns: number[] = [];
  const ts: number[] = [];
  let texts: string[] = [];
  for (let i = 0; i < REPEAT; i++) {
    counting = [];
    trips = 0;
    await op();
    // Let queued NOTIFYs of this call go out before the next one starts (they are its round trips too).
    await new Promise((r) => setTimeout(r, 5));
    ns.push(counting.length);
    ts.push(trips);
    texts = counting;
    counting = null;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { n: median(ns), t: median(ts), texts };
}

let adminUrl = '';
const teardown = await setupPostgres({ provide: (_key: string, url: string) => (adminUrl = url) } as never);
const db = await createTestDatabase(adminUrl);
const services = await createPostgresServices(db.url, {});
const core: Core = createCore({
  hasher: fastHasher,
  secret: new TextEncoder().encode(randomBytes(32).toString('base64url')),
  urls: 'http://127.0.0.1',
  ...services.core,
  hostMessageRate: { burst: 1_000_000_000, perMinute: 60_000_000_000 },
});
const user = await seedUser(core.store);
const { token, agents } = await seedConnection(core.store, user.id, ['bench', 'second', 'third']);
const principal = await core.connectionAuth.verify(token);
const agentId = agents[0]!.id;
const mcpRate = core.limits.rateLimiter('mcp', { burst: 1_000_000, perMinute: 60_000_000 });
let screenId = (await core.threadOps.show(principal, { lines: LINES })).screen_id;

const rows: [string, () => Promise<unknown>][] = [
  ['MCP: bearer token verify', () => core.connectionAuth.verify(token)],
  ['MCP: rate bucket take', () => mcpRate.take(principal.connectorId)],
  ['svc_show', () => core.threadOps.show(principal, { lines: LINES })],
  ['svc_say', () => core.threadOps.say(principal, { text: 'hello' })],
  ['svc_threads (3 agents)', () => core.threadOps.threads(principal)],
  ['svc_answers (wait 0)', () => core.threadOps.answers(principal, { wait: 0 })],
  ['app: agent list', () => core.agents.list(user.id)],
  ['app: thread page', () => core.threads.page(user.id, agentId)],
  ['app: thread page text', () => core.threads.pageText(user.id, agentId)],
  ['app: say', () => core.threads.say(user.id, agentId, { text: 'hi' })],
  [
    'app: tap',
    async () => {
      await core.threads.tap(user.id, agentId, {
        screen_id: screenId,
        event: { id: 'lunch', value: 'Pasta' },
      });
      screenId = (await core.threadOps.show(principal, { lines: LINES })).screen_id;
    },
  ],
  ['app: presence', () => core.threads.setPresence(user.id, agentId, true, 'phone')],
];
const verbose = process.argv.includes('--verbose');
console.log(`Statements and round trips per call on PostgreSQL (medians of ${REPEAT} calls, one at a time)`);
console.log(`  ${'call'.padEnd(28)} statements  round trips`);
for (const [label, op] of rows) {
  const { n, t, texts } = await count(op);
  const note = label === 'app: tap' ? ' (with the svc_show that makes the next screen)' : '';
  console.log(`  ${label.padEnd(28)} ${String(n).padStart(10)}  ${String(t).padStart(11)}${note}`);
  if (verbose) for (const t of texts) console.log(`      ${t.replace(/\s+/g, ' ').slice(0, 150)}`);
}
await services.close();
await db.drop();
await teardown();
