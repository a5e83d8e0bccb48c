// Issue 46: the management API has a rate bucket per account (100 pair_code calls in 0.15 s were served).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestCore, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManagementRouter, MANAGEMENT_RATE } from './management-router.js';

let core: TestCore;
let server: Server;
let url: string;

beforeAll(async () => {
  core = createTestCore({ clockMode: 'running' });
  const ex = express();
  ex.use('/svc-agents', createManagementRouter({ management: core.management }));
  server = ex.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/svc-agents`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  core.close();
});

const call = (token: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe('the management bucket', () => {
  it('serves a burst of 30 per account, then 429 with Retry-After; another account is not slowed', async () => {
    const ada = await core.accounts.signUp({ email: 'rate-ada@example.com', password: 'a long passphrase' });
    const bob = await core.accounts.signUp({ email: 'rate-bob@example.com', password: 'a long passphrase' });
    const token = (await core.managementTokens.create(ada.user.id, 'robot')).token;
    const { agent } = await core.agents.create(ada.user.id, { name: 'Paired' });
    const statuses: number[] = [];
    // The app's sign-in and a management token of one person share the bucket.
    for (let i = 0; i < MANAGEMENT_RATE.burst + 5; i++) {
      const res = await call(i % 2 ? token : ada.access_token, { action: 'pair_code', agent_id: agent.id });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await res.json()).toMatchObject({ error: 'rate_limited' });
      } else await res.body?.cancel();
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(MANAGEMENT_RATE.burst);
    expect(statuses.slice(MANAGEMENT_RATE.burst).every((s) => s === 429)).toBe(true);
    expect((await call(bob.access_token, { action: 'list' })).status).toBe(200);
    // A caller with no valid credentials gets 401 and costs no one's bucket.
    expect((await call('svc_mt_wrong', { action: 'list' })).status).toBe(401);
  });
});
