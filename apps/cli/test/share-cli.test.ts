import { createHostClient } from '@screen-service/connect-api/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../server/test/harness.js';
import { runSvc } from './run-svc.js';

const SAFE = {
  terminal: 'off',
  files: 'off',
  reach: [],
  memory: 'off',
  runner: 'api',
  profile: 'own',
  extra_keys: 0,
};
let t: TestServer;
let call: ReturnType<typeof client>;

beforeAll(async () => {
  t = await startTestServer();
  call = client(t.base);
});
afterAll(() => t.close());

function svc(args: string[]) {
  return runSvc(['share', ...args], { SVC_DATA_DIR: t.dataDir, SVC_BASE_URL: t.base, LOG_LEVEL: 'silent' });
}

// Each `svc share` call is its own process: on a busy machine the whole flow takes longer than the default.
it('refuses an unsafe agent with exit 3 naming the rule; plan parses back through send; list and revoke', async () => {
  const owner = await signUp(call, 'owner@example.com');
  const holder = await signUp(call, 'holder@example.com');
  const created = (await call('POST', '/agents', { token: owner.access_token, body: { name: 'Helper' } }))
    .body;
  const host = createHostClient({ url: t.base });
  const paired = await host.pair({ code: created.pairing.code, remote_ref: 'helper', host_name: 'box' });
  host.setToken(paired.connector_token!);
  await host.heartbeat({ helper: { ...SAFE, memory: 'shared' } });

  const safe = await svc(['safe', 'helper', '--email', 'owner@example.com']);
  expect(safe.code, safe.stderr).toBe(3);
  expect(JSON.parse(safe.stdout)).toMatchObject({ client_safe: false, share_why: ['memory'] });
  expect(safe.stderr).toMatch(/failed rule: memory/);
  const grant = await svc(['grant', 'helper', 'holder@example.com', '--email', 'owner@example.com']);
  expect(grant.code, grant.stderr).toBe(3);
  expect(grant.stderr).toMatch(/not client-safe; failed rule: memory \(memory off\)/);
  const usage = await svc(['grant', 'helper', '--email', 'owner@example.com']);
  expect(usage.code).toBe(2);

  await host.heartbeat({ helper: SAFE });
  expect((await svc(['safe', 'helper', '--email', 'owner@example.com'])).code).toBe(0);
  const plan = await svc(['plan', '--email', 'owner@example.com']);
  expect(plan.code, plan.stderr).toBe(0);
  const planned = JSON.parse(plan.stdout);
  expect(planned.agents).toBe('helper');
  const sent = await svc([
    'send',
    '--email',
    'owner@example.com',
    '--answers',
    JSON.stringify({ ...planned, first_name: 'Hana' }),
  ]);
  expect(sent.code, sent.stderr).toBe(0);
  const { link } = JSON.parse(sent.stdout) as { link: string };
  expect(link.startsWith(`${t.base}/#/invite/svc_inv_`)).toBe(true);
  const token = link.split('/#/invite/')[1]!;
  const claimed = await call('POST', `/invites/${token}/claim`, { token: holder.access_token });
  expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
  expect(claimed.body.granted).toHaveLength(1);

  const list = await svc(['list', '--email', 'owner@example.com']);
  expect(JSON.parse(list.stdout).map((g: { user: { email: string } }) => g.user.email)).toEqual([
    'holder@example.com',
  ]);
  const revoked = await svc(['revoke', 'helper', 'holder@example.com', '--email', 'owner@example.com']);
  expect(revoked.code, revoked.stderr).toBe(0);
  const after = (await call('GET', '/agents', { token: holder.access_token })).body;
  expect(after.agents.map((a: { id: string }) => a.id)).not.toContain(created.agent.id);
  expect((await svc(['revoke', 'helper', 'holder@example.com', '--email', 'owner@example.com'])).code).toBe(
    3,
  );
}, 60_000);
