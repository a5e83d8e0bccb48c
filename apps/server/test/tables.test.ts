// Relay tables through the live service: the tables call, the person's controls, hand-over, keeping on removal.

import { queryTestDatabase } from '@screen-service/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Reply, signUp, sqliteOf, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let call: ReturnType<typeof client>;
let token: string;
let host: string;
const ids: Record<string, string> = {};

const TABLES = '/functions/v1/svc-connect/tables';
const tables = (agent: string, body: Record<string, unknown>) =>
  fetch(t.base + TABLES, {
    method: 'POST',
    headers: { authorization: `Bearer ${host}`, 'content-type': 'application/json' },
    body: JSON.stringify({ agent, ...body }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Reply['body'] }));

beforeAll(async () => {
  t = await startTestServer();
  call = client(t.base);
  token = (await signUp(call, 'tables@example.com')).access_token;
  for (const name of ['Coach', 'Nurse']) {
    const created = (await call('POST', '/agents', { token, body: { name } })).body;
    ids[name.toLowerCase()] = created.agent.id;
    const paired = await call('POST', '/functions/v1/svc-connect', {
      ...(host ? { token: host } : {}),
      body: {
        action: 'pair',
        code: created.pairing.code,
        remote_ref: name.toLowerCase(),
        kind: 'hostfw',
        host_name: 'laptop',
      },
    });
    expect(paired.status).toBe(200);
    host ??= paired.body.connector_token;
  }
});
afterAll(() => t.close());

describe('relay tables in the live service', () => {
  it('a host connection writes through the tables call; the person lists them with holder and last read', async () => {
    const w = await tables('coach', {
      lines:
        'table create Weights Day:date Weight:number:kg\nput Weights Day=2026-11-20 Weight=72\nquery Weights',
    });
    expect(w.status).toBe(200);
    expect(w.body.results[0].rows).toEqual([['2026-11-20', 72]]);
    await tables('nurse', { lines: 'table create Weights Kg:number' });
    const list = await call('GET', '/tables', { token });
    expect(list.status).toBe(200);
    expect(list.body.tables).toEqual([
      {
        name: 'Weights',
        rows: 1,
        cols: ['Day', 'Weight'],
        agent: { id: ids.coach, handle: 'coach', name: 'Coach' },
        holder: ids.coach,
        last_read_at: expect.any(String),
        expires_at: null,
      },
      expect.objectContaining({ name: 'Weights', holder: ids.nurse, last_read_at: null }),
    ]);
  });

  it('hand-over with a name clash: given as <name>-<agent>; the new holder opens its next turn with the tables line', async () => {
    const given = await call('POST', '/tables/give', {
      token,
      body: { table: 'Weights', from: ids.coach, to: ids.nurse },
    });
    expect(given).toMatchObject({
      status: 200,
      body: { table: 'Weights-coach', agent: { handle: 'nurse' }, renamed: true },
    });
    expect((await tables('coach', { lines: 'query Weights' })).body.results[0].error).toBe(
      'No table called Weights yet.',
    );
    expect((await tables('nurse', { lines: 'query Weights-coach' })).body.results[0].rows).toEqual([
      ['2026-11-20', 72],
    ]);
    const said = await call('POST', `/agents/${ids.nurse}/messages`, { token, body: { text: 'Hi' } });
    expect(said.body.meta.tables).toBe('[svc] tables Weights-coach(1 rows: Day, Weight)');
    const again = await call('POST', `/agents/${ids.nurse}/messages`, { token, body: { text: 'Again' } });
    expect(again.body.meta.tables).toBeUndefined();
  });

  it('the person may rename first; a taken name is refused', async () => {
    const clash = await call('POST', '/tables/give', {
      token,
      body: { table: 'Weights-coach', from: ids.nurse, to: ids.coach, name: 'Weights' },
    });
    expect(clash.status).toBe(200);
    await tables('coach', { lines: 'table create Other A:text' });
    const taken = await call('POST', '/tables/give', {
      token,
      body: { table: 'Weights', from: ids.nurse, to: ids.coach, name: 'Other' },
    });
    expect(taken).toMatchObject({ status: 409, body: { error: 'table_name_taken', field: 'name' } });
    const missing = await call('POST', '/tables/give', {
      token,
      body: { table: 'Nope', from: ids.nurse, to: ids.coach },
    });
    expect(missing).toMatchObject({ status: 404, body: { error: 'table_not_found' } });
  });

  it("removing an agent keeps its tables unheld for 30 days when asked; the person's own delete needs no card", async () => {
    expect((await call('DELETE', `/agents/${ids.coach}?keep_tables=true`, { token })).status).toBe(204);
    const list = (await call('GET', '/tables', { token })).body.tables as {
      name: string;
      agent: unknown;
      holder: string;
      expires_at: string | null;
    }[];
    const kept = list.filter((x) => x.agent === null);
    expect(kept.map((x) => x.name).sort()).toEqual(['Other', 'Weights']);
    for (const k of kept) {
      const days = (Date.parse(k.expires_at!) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
    }
    const back = await call('POST', '/tables/give', {
      token,
      body: { table: 'Weights', from: kept.find((k) => k.name === 'Weights')!.holder, to: ids.nurse },
    });
    // The nurse has a Weights of its own: the kept one comes back named after the removed agent.
    expect(back.body).toMatchObject({ table: 'Weights-coach', renamed: true });
    const other = kept.find((k) => k.name === 'Other')!;
    expect(
      (await call('POST', '/tables/delete', { token, body: { table: 'Other', from: other.holder } })).status,
    ).toBe(204);
    expect(((await call('GET', '/tables', { token })).body.tables as unknown[]).length).toBe(2);
  });

  it('/openapi.json documents the tables call and the table controls', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    const op = doc.paths['/functions/v1/svc-connect/tables'].post;
    expect(Object.keys(op.responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '422',
      '429',
    ]);
    expect(op.security).toEqual([{ connectionToken: [] }]);
    expect(doc.components.securitySchemes.connectionToken.scheme).toBe('bearer');
    expect(
      doc.paths['/functions/v1/svc-app/tables/give'].post.requestBody.content['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/GiveTableRequest',
    });
  });

  it('deleting the account leaves zero table rows', async () => {
    const deleted = await call('DELETE', '/me', { token, body: { password: 'correct horse battery' } });
    expect(deleted.status).toBe(204);
    for (const table of ['te_tables', 'te_rows', 'te_pending', 'relay_tables', 'relay_agent_state']) {
      // On PostgreSQL the rows are counted there (the data folder holds no SQLite file to count in).
      const n =
        t.databaseUrl === undefined
          ? (sqliteOf(t).prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n
          : (
              (await queryTestDatabase(t.databaseUrl, `SELECT COUNT(*)::int AS n FROM ${table}`))[0] as {
                n: number;
              }
            ).n;
      expect(n, `rows left in ${table}`).toBe(0);
    }
  });
});
