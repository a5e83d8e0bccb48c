// Web Push through the whole server: VAPID from config or made once (0600), subscriptions on the person's
// API, a buzz from an MCP svc_show reaching a push service on 127.0.0.1, presence and mute from the app.
import fs from 'node:fs';
import path from 'node:path';
import { startTestPushService, type TestPushService } from '@screen-service/push/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let ps: TestPushService;
let call: ReturnType<typeof client>;

beforeAll(async () => {
  ps = await startTestPushService();
  t = await startTestServer({ SVC_VAPID_SUBJECT: 'mailto:ops@example.com', SVC_OUTBOUND_LOOPBACK: '1' });
  call = client(t.base);
});
afterAll(async () => {
  await t.close();
  await ps.close();
});

async function mcp(
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ result: { isError?: boolean; structuredContent: { screen_id: string } } }> {
  const res = await fetch(`${t.base}/functions/v1/svc-mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return (await res.json()) as { result: { isError?: boolean; structuredContent: { screen_id: string } } };
}

async function paired(email: string) {
  const person = await signUp(call, email);
  const token = person.access_token;
  const created = (await call('POST', '/agents', { token, body: { name: 'Juniper' } })).body;
  const pair = await call('POST', '/functions/v1/svc-connect', {
    body: {
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'main',
      kind: 'mcp',
      host_name: 'laptop',
    },
  });
  return { token, agentId: created.agent.id as string, connector: pair.body.connector_token as string };
}

describe('push through the server', () => {
  it('generates the VAPID keys once, owner-only, and offers the public key to the app', async () => {
    const file = path.join(t.dataDir, 'vapid.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(fs.readFileSync(file, 'utf8'));
    const { access_token: token } = await signUp(call, 'keys@example.com');
    const status = (await call('GET', '/push', { token })).body;
    expect(status).toEqual({
      configured: true,
      public_key: kept.publicKey,
      subscriptions: [],
      settings: { quiet_hours: null, allow_urgent: true, plain_per_hour: 1 },
    });
  });

  it('svc_show over MCP buzzes the registered device; an open thread does not; a muted agent does not', async () => {
    const p = await paired('buzz@example.com');
    const sub = ps.subscriber();
    const put = await call('PUT', '/push/subscriptions', {
      token: p.token,
      body: { endpoint: sub.endpoint, keys: sub.keys, device: 'phone-1' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ device: 'phone-1', service: new URL(ps.url).host });

    const shown = await mcp(p.connector, 'svc_show', { lines: 'choose@go "Deploy now?" Yes|No' });
    expect(shown.result.isError).toBeFalsy();
    const [push] = await ps.waitFor(1);
    expect(push!.payload).toMatchObject({
      kind: 'message',
      title: 'Juniper',
      body: 'Deploy now?',
      tag: `thread-${p.agentId}`,
      url: `${t.base}/#/a/${p.agentId}?screen=${(shown.result as { structuredContent: { screen_id: string } }).structuredContent.screen_id}`,
    });
    expect(push!.vapid.sub).toBe('mailto:ops@example.com');

    expect(
      (
        await call('PUT', `/agents/${p.agentId}/presence`, {
          token: p.token,
          body: { open: true, device: 'phone-1' },
        })
      ).status,
    ).toBe(200);
    await mcp(p.connector, 'svc_say', { text: 'seen live' });
    await call('PUT', `/agents/${p.agentId}/presence`, {
      token: p.token,
      body: { open: false, device: 'phone-1' },
    });
    await call('PATCH', `/agents/${p.agentId}`, { token: p.token, body: { push_muted: true } });
    await mcp(p.connector, 'svc_say', { text: 'muted' });
    await call('PATCH', `/agents/${p.agentId}`, { token: p.token, body: { push_muted: false } });
    await mcp(p.connector, 'svc_say', { text: 'audible again' });
    // The sender's collapse window holds the follow-up for up to 5 s after the first buzz.
    const all = await ps.waitFor(2, 8000);
    expect(all.map((r) => (r.payload as { body: string }).body)).toEqual(['Deploy now?', 'audible again']);

    const off = await call('DELETE', '/push/subscriptions', {
      token: p.token,
      body: { endpoint: sub.endpoint },
    });
    expect(off.status).toBe(204);
    expect((await call('GET', '/push', { token: p.token })).body.subscriptions).toEqual([]);
  }, 20_000);

  it('refuses a malformed subscription naming the field', async () => {
    const { access_token: token } = await signUp(call, 'bad@example.com');
    const r = await call('PUT', '/push/subscriptions', {
      token,
      body: { endpoint: 'https://push.example/x', keys: { p256dh: 'AAAA', auth: 'AAAA' } },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_input', field: 'keys.p256dh' });
  });
});

describe('push not configured', () => {
  it('says so to the app and keeps working', async () => {
    const plain = await startTestServer();
    try {
      const c = client(plain.base);
      const { access_token: token } = await signUp(c, 'plain@example.com');
      expect((await c('GET', '/push', { token })).body).toEqual({
        configured: false,
        public_key: null,
        subscriptions: [],
        settings: { quiet_hours: null, allow_urgent: true, plain_per_hour: 1 },
      });
      expect(fs.existsSync(path.join(plain.dataDir, 'vapid.json'))).toBe(false);
      expect(plain.running.services.pushSender).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
