// Two instances on one PostgreSQL: each killed mid-write in turn, then PostgreSQL itself crashed and started
// again, under the same write load; acknowledged writes present once, answers once, every index intact.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runKillRestart, seededRandom } from '../src/kill-restart.js';
import { type FaultsPostgres, startFaultsPostgres } from '../src/postgres.js';
import { type ServiceProcess, startService } from '../src/service.js';
import { postgresRows, verifyLive, verifyRows } from '../src/verify.js';

let pg: FaultsPostgres;
const services: ServiceProcess[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  pg = await startFaultsPostgres();
  const env = {
    SVC_DATABASE_URL: pg.url,
    SVC_SECRET: 'kill-restart-postgres-test-secret-0123456789',
    SVC_MCP_RATE_BURST: '100000',
    SVC_MCP_RATE_PER_MINUTE: '100000',
  };
  for (let i = 0; i < 2; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-kill-pg-'));
    dataDirs.push(dataDir);
    services.push(await startService({ dataDir, env }));
  }
}, 120_000);

afterAll(async () => {
  for (const svc of services) await svc.stop().catch(() => {});
  await pg?.stop();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

it('keeps every acknowledged write and returns each answer once across instance kills and a PostgreSQL crash', async () => {
  const seed = Number(process.env.SVC_FAULTS_SEED ?? Date.now() % 100000);
  // Faults in turn: instance 0 killed, instance 1 killed, PostgreSQL crashed (immediate shutdown).
  const run = await runKillRestart({
    services,
    database: pg,
    clients: 4,
    oauthClients: 1,
    kills: 3,
    upMs: { min: 1000, max: 2000 },
    random: seededRandom(seed),
  });
  expect(run.databaseCrashes).toBe(1);
  const live = await verifyLive(services[0] as ServiceProcess, run);
  for (const svc of services) await svc.stop();
  const stored = await postgresRows(pg.query);
  const file = verifyRows(stored, run);
  expect({
    seed,
    problems: [...live.problems, ...file.problems],
    lostAnswers: file.details,
  }).toMatchObject({ problems: [] });
  // The load really wrote across the faults, through both instances.
  expect(file.figures.saysAcked).toBeGreaterThan(2);
  expect(file.figures.tapsAcked).toBeGreaterThan(2);
  expect(file.figures.repliesAcked).toBeGreaterThan(2);
  expect(live.figures.rowsAcked).toBeGreaterThan(2);
  expect(run.recoverMs.length).toBeGreaterThanOrEqual(1);
  expect(stored.integrity).toBe('ok');
}, 180_000);
