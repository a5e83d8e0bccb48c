// Relay tables over HTTP on PostgreSQL (issue 20 item 1, ADR 0222): two instances on one database, the
// tables call on one and the person's controls on the other; another person sees none of it.
import { createTestDatabase, type TestDatabase } from '@screen-service/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Deployment,
  deployment,
  type Instance,
  pairedPerson,
  request,
  startInstance,
} from './instances.js';

let db: TestDatabase;
let d: Deployment;
let a: Instance;
let b: Instance;

beforeAll(async () => {
  db = await createTestDatabase();
  d = deployment(db.url);
  a = await startInstance(d, 'a');
  b = await startInstance(d, 'b');
}, 60_000);
afterAll(async () => {
  for (const i of [a, b]) await i?.close();
  await db?.drop();
});

const TABLES = '/functions/v1/svc-connect/tables';
const tablesCall = (port: number, connectorToken: string, lines: string) =>
  request(port, 'POST', TABLES, { token: connectorToken, body: { lines } });

describe('relay tables on PostgreSQL over HTTP', () => {
  it('the tables call writes on one instance; the person lists, gives back and deletes on the other', async () => {
    const p = await pairedPerson([a.port, b.port], 'tables-pg@example.com');
    const w = await tablesCall(
      a.port,
      p.connectorToken,
      'table create Weights Day:date Weight:number:kg\nput Weights Day=2026-11-20 Weight=72\nput Weights Day=2026-11-21 Weight=71.5\nquery Weights sort=-Weight',
    );
    expect(w.status).toBe(200);
    expect(w.body.failed).toEqual([]);
    expect(w.body.results[0].rows).toEqual([
      ['2026-11-20', 72],
      ['2026-11-21', 71.5],
    ]);
    const list = await request(b.port, 'GET', '/tables', { token: p.token });
    expect(list.status).toBe(200);
    expect(list.body.tables.map((t: { name: string; rows: number }) => [t.name, t.rows])).toEqual([
      ['Weights', 2],
    ]);
    // A delete waits for the person's tap; the row stays until then.
    const del = await tablesCall(
      b.port,
      p.connectorToken,
      'put Weights r1 +delete\nquery Weights as stat y=Weight',
    );
    expect(del.status).toBe(200);
    expect(del.body.results[0].rows).toHaveLength(2);
    const gone = await request(a.port, 'POST', '/tables/delete', {
      token: p.token,
      body: { table: 'Weights', from: p.agentId },
    });
    expect([204, 200]).toContain(gone.status);
    expect((await request(b.port, 'GET', '/tables', { token: p.token })).body.tables).toEqual([]);
  });

  it("another person's agent and controls never reach the first person's tables", async () => {
    const owner = await pairedPerson([a.port, b.port], 'owner-pg@example.com');
    const other = await pairedPerson([b.port, a.port], 'other-pg@example.com');
    expect(
      (await tablesCall(a.port, owner.connectorToken, 'table create Secret S:text\nput Secret k S=hidden'))
        .status,
    ).toBe(200);
    const peek = await tablesCall(b.port, other.connectorToken, 'query Secret\nput Secret k S=changed');
    expect(peek.status).toBe(200);
    expect(peek.body.results[0].rows).toEqual([]);
    expect(peek.body.failed.map((f: { code: string }) => f.code)).toEqual(['TABLE_NOT_FOUND']);
    expect((await request(a.port, 'GET', '/tables', { token: other.token })).body.tables).toEqual([]);
    const give = await request(b.port, 'POST', '/tables/give', {
      token: other.token,
      body: { table: 'Secret', from: owner.agentId, to: other.agentId },
    });
    expect(give.status).toBe(404);
    const mine = await tablesCall(b.port, owner.connectorToken, 'query Secret');
    expect(mine.body.results[0].rows).toEqual([['hidden']]);
  });
});
