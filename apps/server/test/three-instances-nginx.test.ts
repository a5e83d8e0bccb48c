// The documented multi-instance set-up as it ships: three instances on one PostgreSQL behind Debian's nginx
// running deploy/nginx/screen-service-three-instances.conf (only addresses and certificate swapped), no
// sticky sessions. A person's stream held through the proxy sees what the other instances write, and the
// `mcp` bucket counts once for all three.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MOUNTS } from '@screen-service/registry/mounts';
import { createTestDatabase, type TestDatabase } from '@screen-service/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deployment, type Instance, startInstance } from './instances.js';
import { prepareNginx, type RunningNginx } from './nginx-run.js';

const SITE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../deploy/nginx/screen-service-three-instances.conf',
);

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
type Json = any;

let db: TestDatabase;
let proxy: RunningNginx;
const instances: Instance[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await prepareNginx(SITE);
  const d = deployment(db.url);
  for (const name of ['a', 'b', 'c']) {
    instances.push(
      await startInstance(d, name, {
        SVC_BASE_URL: proxy.base,
        SVC_TRUST_PROXY: 'loopback',
        SVC_MCP_RATE_BURST: '60',
        SVC_MCP_RATE_PER_MINUTE: '1',
      }),
    );
  }
  await proxy.start(instances.map((i) => i.port));
}, 240_000);

afterAll(async () => {
  await proxy?.stop();
  for (const i of instances) await i.close();
  await db?.drop();
});

async function mcp(token: string, name: string, args: Record<string, unknown> = {}) {
  return proxy.fetch(`${proxy.base}${MOUNTS.mcp}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}

/** A person with an agent paired as an MCP connection, every call through the proxy. */
async function person(email: string) {
  const post = (p: string, body: unknown, token?: string) =>
    proxy.fetch(`${proxy.base}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const signup = (await (
    await post(`${MOUNTS.app}/auth/signup`, { email, password: 'correct horse battery' })
  ).json()) as Json;
  const created = (await (
    await post(`${MOUNTS.app}/agents`, { name: 'Juniper' }, signup.access_token)
  ).json()) as Json;
  const paired = (await (
    await post(MOUNTS.connect, {
      action: 'pair',
      code: created.pairing.code,
      remote_ref: 'r',
      kind: 'mcp',
      host_name: 'laptop',
    })
  ).json()) as Json;
  return {
    token: signup.access_token as string,
    userId: signup.user.id as string,
    ct: paired.connector_token,
  };
}

describe('three instances behind nginx (deploy/nginx/screen-service-three-instances.conf)', () => {
  it("a person's stream through the proxy sees messages written on each of the other instances", async () => {
    const p = await person('ada@example.com');
    const stream = await proxy.fetch(`${proxy.base}${MOUNTS.app}/stream`, {
      headers: { authorization: `Bearer ${p.token}` },
    });
    expect(stream.status).toBe(200);
    // Exactly one instance holds the stream.
    const holders = () => instances.filter((i) => i.running!.services.notifier.listenerCount(p.userId) > 0);
    await vi.waitFor(() => expect(holders()).toHaveLength(1));
    const holder = holders()[0]!;
    // The agent speaks through each other instance (straight to it, so it is surely not the holder).
    const others = instances.filter((i) => i !== holder);
    for (const [n, i] of others.entries()) {
      const principal = await i.running!.services.connectionAuth.verify(p.ct);
      await i.running!.services.threadOps.say(principal, { text: `hello from instance ${n}` });
    }
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const timer = setTimeout(() => void reader.cancel(), 5000);
    while (!(text.includes('hello from instance 0') && text.includes('hello from instance 1'))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    clearTimeout(timer);
    await reader.cancel();
    expect(text).toContain('hello from instance 0');
    expect(text).toContain('hello from instance 1');
  });

  it('svc_answers waits through the proxy and a tap through the proxy wakes it', async () => {
    const p = await person('grace@example.com');
    const shown = (await (
      await mcp(p.ct, 'svc_show', { lines: 'choose@lunch "Lunch?" Pasta|Salad' })
    ).json()) as Json;
    const screenId = shown.result.structuredContent.screen_id;
    const waiting = mcp(p.ct, 'svc_answers', { screen_id: screenId, wait: 20 }).then(
      (r) => r.json() as Promise<Json>,
    );
    await vi.waitFor(() =>
      expect(instances.some((i) => i.running!.services.notifier.listenerCount(p.userId) > 0)).toBe(true),
    );
    const agents = (await (
      await proxy.fetch(`${proxy.base}${MOUNTS.app}/agents`, {
        headers: { authorization: `Bearer ${p.token}` },
      })
    ).json()) as Json;
    const started = performance.now();
    const tapped = await proxy.fetch(`${proxy.base}${MOUNTS.app}/agents/${agents.agents[0].id}/taps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ screen_id: screenId, event: { id: 'lunch', value: 'Salad' } }),
    });
    expect(tapped.status).toBe(201);
    const got = await waiting;
    expect(
      got.result.structuredContent.answers.map((a: { event: { value: string } }) => a.event.value),
    ).toEqual(['Salad']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('the 61st call of a burst through the proxy is refused', async () => {
    const p = await person('edsger@example.com');
    const statuses = await Promise.all(
      Array.from({ length: 61 }, () => mcp(p.ct, 'svc_threads').then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
  });
});
