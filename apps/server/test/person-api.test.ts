// The person's API rules over HTTP: validation naming the field, agent edits, default hand-over, codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let call: ReturnType<typeof client>;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  call = client(t.base);
  token = (await signUp(call, 'rules@example.com')).access_token;
});
afterAll(() => t.close());

const names = async () =>
  ((await call('GET', '/agents', { token })).body.agents as { name: string; is_default: boolean }[]).map(
    (a) => `${a.name}${a.is_default ? '*' : ''}`,
  );

describe("the person's API", () => {
  it('creates, reorders, sets default, hands the default over on delete', async () => {
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      ids.push((await call('POST', '/agents', { token, body: { name } })).body.agent.id);
    }
    expect(await names()).toEqual(['One*', 'Two', 'Three']);
    await call('PUT', '/agents/order', { token, body: { ids: [ids[2], ids[0], ids[1]] } });
    expect(await names()).toEqual(['Three', 'One*', 'Two']);
    const patched = await call('PATCH', `/agents/${ids[1]}`, {
      token,
      body: { is_default: true, name: 'Deux', color: 'butter', push_muted: true },
    });
    expect(patched.body).toMatchObject({ name: 'Deux', color: 'butter', push_muted: true, is_default: true });
    expect(await names()).toEqual(['Three', 'One', 'Deux*']);
    expect((await call('DELETE', `/agents/${ids[1]}`, { token })).status).toBe(204);
    expect(await names()).toEqual(['Three*', 'One']);
  });

  it('mints a new code and the old one stops working', async () => {
    const created = (await call('POST', '/agents', { token, body: { name: 'Coded' } })).body;
    const fresh = await call('POST', `/agents/${created.agent.id}/code`, { token });
    expect(fresh.status).toBe(201);
    expect(fresh.body.code).toMatch(/^\d{6}$/);
    const pair = (code: string, ref: string) =>
      call('POST', '/functions/v1/svc-connect', {
        body: { action: 'pair', code, remote_ref: ref, kind: 'mcp', host_name: 'h' },
      });
    expect((await pair(created.pairing.code, 'old')).body.error).toBe('invalid_or_expired_code');
    expect((await pair(fresh.body.code, 'new')).status).toBe(200);
  });

  it.each([
    ['POST', '/agents', { name: '' }, 'name'],
    ['POST', '/agents', { name: 'x'.repeat(41) }, 'name'],
    ['POST', '/agents', { name: 'ok', color: 'red' }, 'color'],
    ['PUT', '/agents/order', { ids: 'nope' }, 'ids'],
    ['POST', '/auth/signup', { email: 'not-an-email', password: 'long enough' }, 'email'],
  ])('%s %s refuses %j naming %s', async (method, p, body, field) => {
    const r = await call(method, p, { token, body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_input', field });
  });

  it('refuses a theme over 2 KB, an unknown agent, a tap not on the screen, and malformed JSON', async () => {
    const id = (await call('POST', '/agents', { token, body: { name: 'Themed' } })).body.agent.id;
    const big = await call('PATCH', `/agents/${id}`, {
      token,
      body: { theme: { accent: 'x'.repeat(2100) } },
    });
    expect(big.body).toMatchObject({ error: 'invalid_input', field: 'theme' });
    expect((await call('GET', '/agents/agt_unknown', { token })).status).toBe(404);
    const tap = await call('POST', `/agents/${id}/taps`, {
      token,
      body: { screen_id: 'scr_x', event: { id: 'n1' } },
    });
    expect(tap.body.error).toBe('screen_not_found');
    const res = await fetch(`${t.base}/functions/v1/svc-app/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(res.status).toBe(400);
  });

  it('pages a thread newest first with a cursor to older pages', async () => {
    const created = (await call('POST', '/agents', { token, body: { name: 'Pager' } })).body.agent.id;
    for (let i = 1; i <= 5; i++)
      await call('POST', `/agents/${created}/messages`, { token, body: { text: `m${i}` } });
    const first = (await call('GET', `/agents/${created}/messages?limit=2`, { token })).body;
    expect(first.messages.map((m: { body: string }) => m.body)).toEqual(['m4', 'm5']);
    const second = (
      await call('GET', `/agents/${created}/messages?limit=2&before=${first.next_before}`, { token })
    ).body;
    expect(second.messages.map((m: { body: string }) => m.body)).toEqual(['m2', 'm3']);
    expect((await call('GET', `/agents/${created}/messages?limit=500`, { token })).status).toBe(400);
  });
});
