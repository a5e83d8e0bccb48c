// Store throughput, PostgreSQL against the SQLite store measured in the same run (the baseline), as ratios.
// Starts its own throw-away PostgreSQL (config/postgres-setup.ts) unless SVC_TEST_POSTGRES_URL is set.
// Run: npm run bench -w @screen-service/store-postgres (after npm run build).
import { newPageVersion } from '@screen-service/core/threads';
import { addAgent } from '@screen-service/registry/agents';
import { newId } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { createTestStore } from '@screen-service/test-kit';
import startPostgres from '../../../config/postgres-setup.ts';
import { openPostgresStore } from '../dist/index.js';
import { createTestDatabase } from '../dist/testing.js';

const ROUNDS = 3;
const N = Number(process.env.BENCH_N ?? 600);

async function seed(store: Store) {
  const user = await store.users.create({
    id: newId('usr_'),
    email: `${newId()}@example.com`.toLowerCase(),
    passwordHash: 'x',
    firstName: null,
    createdAt: 1,
    suspendedAt: null,
  });
  const agents = [];
  for (let i = 0; i < 8; i++) {
    agents.push(
      await addAgent(store, {
        id: newId('agt_'),
        userId: user.id,
        name: `a${i}`,
        handle: `a${i}`,
        color: 'mint',
        kind: 'mcp',
        createdAt: 1,
      }),
    );
  }
  // One device: an agent row's buzz writes its intent and one outbox row.
  await store.push.saveSubscription({
    id: newId('psub_'),
    userId: user.id,
    endpoint: `https://push.example/${newId()}`,
    p256dh: `B${'A'.repeat(86)}`,
    auth: 'AAAAAAAAAAAAAAAAAAAAAA',
    device: 'phone',
    createdAt: 1,
  });
  return { userId: user.id, agentIds: agents.map((a) => a.id) };
}

const message = (userId: string, agentId: string, sender: 'agent' | 'person') => ({
  id: newId('msg_'),
  userId,
  agentId,
  sender,
  kind: 'text' as const,
  body: 'hello there',
  createdAt: Date.now(),
});

/** Operations per second of `n` calls of `op`, `lanes` at a time. */
async function rate(n: number, lanes: number, op: (i: number, lane: number) => Promise<unknown>) {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < n; i += lanes) await op(i, lane);
    }),
  );
  return n / ((performance.now() - start) / 1000);
}

/**
 * An agent row with its buzz, as the core writes it (ADR 0241): whether a device holds the thread open is
 * read, decided and the push queued with the row, in one transaction.
 */
async function rowWithBuzz(store: Store, userId: string, agentId: string) {
  const m = message(userId, agentId, 'agent');
  await store.transaction(async (tx) => {
    const open = await tx.push.isOpen({ agentId, userId }, m.createdAt);
    const row = await tx.threads.append(m, newPageVersion());
    if (!open) {
      await tx.push.enqueueMessage({
        id: newId('push_'),
        userId,
        agentId,
        messageId: row.id,
        at: m.createdAt,
      });
    }
  });
}

async function measure(store: Store) {
  const { userId, agentIds } = await seed(store);
  const a0 = agentIds[0]!;
  return {
    'append (1 lane)': await rate(N, 1, () =>
      store.threads.append(message(userId, a0, 'agent'), newPageVersion()),
    ),
    'append (8 threads at once)': await rate(N, 8, (_, lane) =>
      store.threads.append(message(userId, agentIds[lane]!, 'agent'), newPageVersion()),
    ),
    'agent row + buzz (8 at once)': await rate(N, 8, (_, lane) =>
      rowWithBuzz(store, userId, agentIds[lane]!),
    ),
    'tap + claimAnswers': await rate(N, 1, async () => {
      await store.threads.append(message(userId, a0, 'person'), newPageVersion());
      await store.threads.claimAnswers({
        agentId: a0,
        userId,
        afterSeq: 0,
        limit: 10,
        at: Date.now(),
        version: newPageVersion(),
      });
    }),
    'page 20 newest': await rate(N, 1, () => store.threads.page({ agentId: a0, userId, limit: 20 })),
    'listByUser + getState': await rate(N, 1, async () => {
      await store.agents.listByUser(userId);
      await store.threads.getState({ agentId: a0, userId });
    }),
  };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

// The set-up uses a configured SVC_TEST_POSTGRES_URL or starts a cluster; either way it provides the admin URL.
let adminUrl = '';
const stop = await startPostgres({ provide: (_key: string, url: string) => (adminUrl = url) } as never);
const results: Record<string, { sqlite: number[]; pg: number[] }> = {};
try {
  for (let round = 0; round < ROUNDS; round++) {
    const lite = createTestStore();
    const db = await createTestDatabase(adminUrl);
    const pg = await openPostgresStore({ url: db.url });
    try {
      const s = await measure(lite.store);
      const p = await measure(pg);
      for (const k of Object.keys(s) as (keyof typeof s)[]) {
        results[k] ??= { sqlite: [], pg: [] };
        results[k].sqlite.push(s[k]);
        results[k].pg.push(p[k]);
      }
    } finally {
      lite.close();
      await pg.close();
      await db.drop();
    }
  }
} finally {
  await stop();
}
console.log(
  `store throughput, median of ${ROUNDS} rounds of ${N} calls (ops/s; PostgreSQL on loopback, fsync off)`,
);
for (const [k, v] of Object.entries(results)) {
  const s = median(v.sqlite);
  const p = median(v.pg);
  console.log(
    `${k.padEnd(30)} sqlite ${s.toFixed(0).padStart(7)}  postgres ${p.toFixed(0).padStart(7)}  ratio pg/sqlite ${(p / s).toFixed(2)}`,
  );
}
