// The service behind Debian's nginx with the checked-in site (deploy/nginx/screen-service.conf, only its
// addresses and certificate swapped): HTTPS, the redirect from HTTP, one MCP turn through the official SDK
// client and one person's event stream, each arriving through the proxy while it happens.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MOUNTS } from '@screen-service/registry/mounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { prepareNginx, type RunningNginx } from './nginx-run.js';

const SITE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../deploy/nginx/screen-service.conf',
);

let proxy: RunningNginx;
let t: TestServer;
let base: string;
let httpPort: number;
let tlsFetch: typeof fetch;

beforeAll(async () => {
  proxy = await prepareNginx(SITE);
  ({ base, httpPort, fetch: tlsFetch } = proxy);
  t = await startTestServer({ SVC_BASE_URL: base });
  await proxy.start([t.running.port]);
}, 240_000);

afterAll(async () => {
  await proxy?.stop();
  await t?.close();
});

/** Reads an event stream until `done` says the text so far is enough. */
async function readUntil(body: ReadableStream<Uint8Array>, done: (text: string) => boolean, ms = 10_000) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => void reader.cancel(), ms);
  try {
    while (!done(text)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  return text;
}

describe('behind nginx (deploy/nginx/screen-service.conf)', () => {
  it('plain HTTP redirects to HTTPS; HTTPS reaches /readyz', async () => {
    const plain = await fetch(`http://127.0.0.1:${httpPort}/readyz`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe('https://127.0.0.1/readyz');
    const ready = await tlsFetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
  });

  it("one MCP turn through the official SDK client and the person's stream, live through the proxy", async () => {
    const svc = t.running.services;
    await svc.accounts.createUser({ email: 'proxy@example.com', password: 'correct horse battery' });
    const {
      connector_token,
      mcp_url,
      agent: bot,
    } = await svc.connectAgent({
      email: 'proxy@example.com',
      agent: 'Proxy bot',
      hostName: 'test',
    });
    expect(mcp_url).toBe(`${base}${MOUNTS.mcp}`);
    const signIn = await tlsFetch(`${base}${MOUNTS.app}/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'proxy@example.com', password: 'correct horse battery' }),
    });
    expect(signIn.status).toBe(200);
    const { access_token } = (await signIn.json()) as { access_token: string };
    const person = { authorization: `Bearer ${access_token}` };

    const stream = await tlsFetch(`${base}${MOUNTS.app}/stream`, { headers: person });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await readUntil(stream.body!, (s) => s.includes(': connected'))).toContain(': connected');

    const app = new Client({ name: 'proxy-test', version: '1.0.0' });
    await app.connect(
      new StreamableHTTPClientTransport(new URL(mcp_url), {
        fetch: tlsFetch,
        requestInit: { headers: { authorization: `Bearer ${connector_token}` } },
      }),
    );
    // The agent writes; the person's open stream gets the event through nginx at once (no buffering).
    const said = await app.callTool({ name: 'svc_say', arguments: { text: 'hello through nginx' } });
    expect(said.isError).toBeFalsy();
    const events = await readUntil(stream.body!, (s) => s.includes('hello through nginx'), 5_000);
    expect(events).toMatch(/event: message\ndata: .*hello through nginx/);

    // The agent waits for the answer; the person answers through nginx; the wait returns it.
    const waiting = app.callTool({ name: 'svc_answers', arguments: { wait: 20 } });
    await new Promise((r) => setTimeout(r, 300));
    const reply = await tlsFetch(`${base}${MOUNTS.app}/agents/${bot.id}/messages`, {
      method: 'POST',
      headers: { ...person, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi from the phone' }),
    });
    expect(reply.status).toBe(201);
    const answered = (await waiting) as {
      structuredContent?: { answers?: { text: string }[] };
      content: unknown;
    };
    expect(JSON.stringify(answered)).toContain('hi from the phone');
    await app.close();
    await stream.body!.cancel();
    expect(proxy.log()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });
});
