// Native agents (ADR 0200) on two instances of one PostgreSQL database: both hear every person row, yet each
// turn runs once — one model call, one answer — whichever instance the row was written through (ADR 0227).

import { type ModelServer, startModelServer } from '@screen-service/native-agents/testing';
import { createTestDatabase, type TestDatabase } from '@screen-service/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployment, type Instance, request, startInstance } from './instances.js';

let db: TestDatabase;
let model: ModelServer;
let a: Instance;
let b: Instance;

beforeAll(async () => {
  db = await createTestDatabase();
  model = await startModelServer();
  const d = deployment(db.url);
  const env = { SVC_MODEL_URL: model.url, SVC_MODEL_NAME: 'test-model' };
  a = await startInstance(d, 'native-a', env);
  b = await startInstance(d, 'native-b', env);
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await model?.close();
  await db?.drop();
});

/** Both instances' runtimes have nothing running or queued at once. */
async function bothIdle() {
  await Promise.all([a, b].map((i) => i.running!.services.native!.runtime.idle()));
}

describe('native agents on two instances', () => {
  it('runs each turn once: one model call and one answer per message, through either instance', async () => {
    const signup = await request(a.port, 'POST', '/auth/signup', {
      body: { email: 'native@example.com', password: 'correct horse battery' },
    });
    const token: string = signup.body.access_token;
    const added = await request(b.port, 'POST', '/native/agents', {
      token,
      body: { name: 'Helper', instructions: 'Answer briefly.' },
    });
    expect(added.status).toBe(201);
    const agentId: string = added.body.id;

    // A slow first answer: the other instance has the whole turn to start one of its own.
    let release!: () => void;
    model.script({ text: 'First answer.', after: new Promise<void>((r) => (release = r)) }, 'Second answer.');
    const first = await request(a.port, 'POST', `/agents/${agentId}/messages`, {
      token,
      body: { text: 'one' },
    });
    expect(first.status).toBe(201);
    await expect.poll(() => model.requests.length).toBe(1);
    // The row's event reaches B in milliseconds; a B that ran the turn too would call the model now. The
    // window only bounds how long the test looks for a second call: with one turn it passes at any speed.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(model.requests).toHaveLength(1);
    release();
    const answers = async () => {
      const r = await request(b.port, 'GET', `/agents/${agentId}/messages`, { token });
      return (r.body.messages as { sender: string; body: string; seq: number }[])
        .filter((m) => m.sender === 'agent')
        .sort((x, y) => x.seq - y.seq);
    };
    await expect.poll(async () => (await answers()).map((m) => m.body)).toEqual(['First answer.']);

    const second = await request(b.port, 'POST', `/agents/${agentId}/messages`, {
      token,
      body: { text: 'two' },
    });
    expect(second.status).toBe(201);
    await expect
      .poll(async () => (await answers()).map((m) => m.body))
      .toEqual(['First answer.', 'Second answer.']);
    await bothIdle();
    expect(model.requests).toHaveLength(2);
    expect((await answers()).length).toBe(2);
  });
});
