import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestCore, seedUser, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectRouter } from './connect-handler.js';

let core: TestCore;
let server: Server;
let url: string;
let userId: string;
const agentsFor = () => core.agents;

beforeAll(async () => {
  // The shared test kit: a real SQLite file with the core schema and the core's rules over it.
  core = createTestCore({ clockMode: 'running' });
  userId = (await seedUser(core.store, { email: 'a@example.com', at: 1 })).id;
  const app = express();
  app.use('/functions/v1/svc-connect', createConnectRouter({ pairing: core.pairing }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/functions/v1/svc-connect`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  core.close();
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const freshCode = async (name: string) => (await agentsFor().create(userId, { name })).pairing!.code;

describe('POST svc-connect action pair (real HTTP)', () => {
  it('answers {connector, connector_token, agent} and reuses the connector with its token', async () => {
    const r = await post({
      action: 'pair',
      code: await freshCode('One'),
      remote_ref: 'one',
      kind: 'mcp',
      host_name: 'box',
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['agent', 'connector', 'connector_token']);
    expect(r.body.connector).toEqual({ id: expect.any(String), name: 'box', kind: 'mcp' });
    expect(r.body.connector_token).toMatch(/^svc_ct_/);
    const again = await post(
      { action: 'pair', code: await freshCode('Two'), remote_ref: 'two', kind: 'mcp' },
      { authorization: `Bearer ${r.body.connector_token}` },
    );
    expect(again.status).toBe(200);
    expect(again.body.connector_token).toBeNull();
    expect((again.body.connector as { id: string }).id).toBe((r.body.connector as { id: string }).id);
    const dup = await post(
      { action: 'pair', code: await freshCode('Three'), remote_ref: 'two', kind: 'mcp' },
      { authorization: `Bearer ${r.body.connector_token}` },
    );
    expect(dup).toMatchObject({ status: 409, body: { error: 'profile_already_added' } });
  });

  it.each([
    [{ action: 'pair', code: '12', remote_ref: 'x', kind: 'mcp', host_name: 'h' }, 400, 'invalid_code'],
    [
      { action: 'pair', code: '123456', remote_ref: 'a b', kind: 'mcp', host_name: 'h' },
      400,
      'invalid_remote_ref',
    ],
    [{ action: 'pair', code: '123456', remote_ref: 'x', kind: 'nope', host_name: 'h' }, 400, 'invalid_kind'],
    [{ action: 'dance' }, 400, 'invalid_action'],
    ['[1,2]', 400, 'invalid_body'],
    ['{not json', 400, 'invalid_json'],
  ])('refuses %j with %i %s', async (body, status, error) => {
    expect(await post(body)).toMatchObject({ status, body: { error } });
  });

  it('answers 401 invalid_or_expired_code, then 429 too_many_attempts after 10 wrong codes', async () => {
    const good = await freshCode('Four');
    const wrong = good === '999999' ? '999998' : '999999';
    const attempt = (code: string) =>
      post({ action: 'pair', code, remote_ref: 'four', kind: 'mcp', host_name: 'h' });
    // Earlier tests made no wrong-code attempts from this address.
    for (let i = 0; i < 10; i++)
      expect(await attempt(wrong)).toMatchObject({ status: 401, body: { error: 'invalid_or_expired_code' } });
    expect(await attempt(good)).toMatchObject({ status: 429, body: { error: 'too_many_attempts' } });
  });

  it('answers 405 to other methods', async () => {
    expect((await fetch(url)).status).toBe(405);
  });
});
