// The one error contract (ADR 0095): every ServiceErrorCode gets the same status and wire code from the
// person's API, the host API and the tool server; body-parser failures and a removed connection too.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { DOC2_CODE_ALIASES, toWireError } from '@screen-service/connect-api';
import { SERVICE_ERROR_CODES, SERVICE_ERROR_STATUS, wireCode } from '@screen-service/http-kit';
import { McpHttpError, toToolError } from '@screen-service/mcp-server';
import { createPersonRouter, defineRoute, type PersonApiServices } from '@screen-service/person-api';
import { ServiceError, type ServiceErrorCode } from '@screen-service/registry/kernel';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API, client, signUp, startTestServer, type TestServer } from './harness.js';

const MCP = '/functions/v1/svc-mcp';
const CONNECT = '/functions/v1/svc-connect';

describe('every ServiceErrorCode on every adapter', () => {
  let base: string;
  let close: () => void;
  beforeAll(async () => {
    // The person's router with one route that throws the code named in its path: the real router's
    // mapping, over real HTTP. The route needs no services, so none are given.
    const throwing = defineRoute({
      method: 'get',
      path: '/throw/:code',
      summary: 'throws',
      auth: 'none',
      response: z.object({}),
      handler: ({ params }) => {
        throw new ServiceError(params.code as ServiceErrorCode, `refused: ${params.code}`, { field: 'x' });
      },
    });
    const app = express();
    app.use(
      createPersonRouter({
        services: { photos: { maxBytes: 1024 } } as unknown as PersonApiServices,
        routes: [throwing],
      }),
    );
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it.each(SERVICE_ERROR_CODES.map((c) => [c]))('%s', async (code) => {
    const status = SERVICE_ERROR_STATUS[code];
    expect(status).toBeGreaterThanOrEqual(400);
    // Every refusal is the caller's (4xx) except a full disk (507): the service's, and worth a retry.
    expect(status).toBeLessThan(code === 'STORAGE_FULL' ? 600 : 500);
    const wire = wireCode(code);
    expect(wire).toMatch(/^[a-z][a-z0-9_]*$/);

    const person = await fetch(`${base}/throw/${code}`);
    expect(person.status).toBe(status);
    expect(await person.json()).toEqual({ error: wire, message: `refused: ${code}`, field: 'x' });

    const host = toWireError(new ServiceError(code, 'm', { field: 'x' }));
    expect(host.status).toBe(status);
    // doc2 names bad input `invalid_<field>` and renames a few codes; every other one is the shared code.
    expect(host.body.error).toBe(code === 'INVALID_INPUT' ? 'invalid_x' : (DOC2_CODE_ALIASES[code] ?? wire));

    const mcp = new McpHttpError(code, 'm');
    expect(mcp.status).toBe(status);
    expect(mcp.body()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { message: 'm', data: { error: wire } },
    });
    const tool = toToolError(new ServiceError(code, 'm'));
    expect(tool.structuredContent.error.code).toBe(wire);
    expect(tool.content[0]!.text).toBe(`${wire}: m`);
  });
});

describe('body-parser failures and a removed connection, over the live service', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  const send = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${t.base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });

  it('bad JSON is 400 invalid_json on every surface', async () => {
    const person = await send(`${API}/auth/signin`, '{nope');
    expect(person.status).toBe(400);
    expect(await person.json()).toMatchObject({ error: 'invalid_json', field: 'body' });
    const host = await send(CONNECT, '{nope');
    expect(host.status).toBe(400);
    expect(await host.json()).toMatchObject({ error: 'invalid_json' });
    const call = client(t.base);
    const c = await call('POST', '/agents', {
      token: (await signUp(call, 'json@example.com')).access_token,
      body: { name: 'J' },
    });
    const paired = await send(
      CONNECT,
      JSON.stringify({
        action: 'pair',
        code: c.body.pairing.code,
        remote_ref: 'j',
        kind: 'mcp',
        host_name: 'h',
      }),
    );
    const token = ((await paired.json()) as { connector_token: string }).connector_token;
    const mcp = await send(MCP, '{nope', { authorization: `Bearer ${token}` });
    expect(mcp.status).toBe(400);
    expect(await mcp.json()).toMatchObject({ error: { code: -32700, data: { error: 'invalid_json' } } });
  });

  it('too large is 413 body_too_large on every surface', async () => {
    const huge = JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024), password: 'p' });
    const person = await send(`${API}/auth/signin`, huge);
    expect(person.status).toBe(413);
    expect(await person.json()).toMatchObject({ error: 'body_too_large' });
    const host = await send(CONNECT, huge);
    expect(host.status).toBe(413);
    expect(await host.json()).toMatchObject({ error: 'body_too_large' });
  });

  it('a removed connection answers 409 connector_revoked on the tool server and the host API', async () => {
    const call = client(t.base);
    const person = await signUp(call, 'removed@example.com');
    const created = await call('POST', '/agents', { token: person.access_token, body: { name: 'Gone' } });
    const paired = (await (
      await send(
        CONNECT,
        JSON.stringify({
          action: 'pair',
          code: created.body.pairing.code,
          remote_ref: 'g',
          kind: 'mcp',
          host_name: 'h',
        }),
      )
    ).json()) as { connector_token: string; connector: { id: string } };
    const token = paired.connector_token;
    const removed = await call('DELETE', `/connections/${paired.connector.id}`, {
      token: person.access_token,
    });
    expect(removed.status).toBe(204);

    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const mcp = await send(MCP, ping, { authorization: `Bearer ${token}` });
    expect(mcp.status).toBe(409);
    expect(await mcp.json()).toMatchObject({ error: { data: { error: 'connector_revoked' } } });

    const code = await call('POST', `/agents/${created.body.agent.id}/code`, { token: person.access_token });
    const again = await send(
      CONNECT,
      JSON.stringify({ action: 'pair', code: code.body.code, remote_ref: 'g2', kind: 'mcp', host_name: 'h' }),
      { authorization: `Bearer ${token}` },
    );
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: 'connector_revoked' });
  });
});
