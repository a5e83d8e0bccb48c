// The one error contract (ADRs 0095, 0242): every ServiceErrorCode, and our own failure, in each protocol's
// one shape over real HTTP: `{error, message}` on the person's, host and management APIs (doc2's spellings
// on the last two), a JSON-RPC error on the tool server, RFC 6749 on OAuth. One mapping (http-kit) behind all.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConnectRouter } from '@screen-service/connect-api';
import {
  createServiceListener,
  DOC2_CODE_ALIASES,
  MANAGEMENT_CODE_ALIASES,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_REQUEST,
  RPC_PARSE_ERROR,
  RPC_SERVER_REFUSAL,
  SERVICE_ERROR_CODES,
  SERVICE_ERROR_STATUS,
  type Step,
  wireCode,
} from '@screen-service/http-kit';
import { createManagementRouter } from '@screen-service/management-api';
import type { AgentManagement } from '@screen-service/management-tokens';
import { createMcpHandler, toToolError } from '@screen-service/mcp-server';
import { createPersonRouter, defineRoute, type PersonApiServices } from '@screen-service/person-api';
import type { Pairing } from '@screen-service/registry/hosts';
import { createRateLimiter, ServiceError, type ServiceErrorCode } from '@screen-service/registry/kernel';
import { MOUNTS } from '@screen-service/registry/mounts';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerByPath } from '../src/refusals.js';
import { expectApiError, expectJsonRpcError, expectOAuthError, raw } from './error-shapes.js';

/** Thrown for the code named in the request: a ServiceError, or anything else for our own failure. */
function thrown(code: string): Error {
  return code === 'BOOM'
    ? new Error('secret internals')
    : new ServiceError(code as ServiceErrorCode, `refused: ${code}`, { field: 'x' });
}

function rpcOf(code: ServiceErrorCode): number {
  if (code === 'INVALID_JSON') return RPC_PARSE_ERROR;
  return code === 'INVALID_INPUT' || code === 'BODY_TOO_LARGE' ? RPC_INVALID_REQUEST : RPC_SERVER_REFUSAL;
}

function oauthOf(code: ServiceErrorCode): [number, string] {
  if (code === 'INVALID_OR_EXPIRED_CODE' || code === 'INVALID_REFRESH_TOKEN') return [400, 'invalid_grant'];
  if (code === 'UNSUPPORTED_MEDIA_TYPE') return [400, 'invalid_request'];
  const status = SERVICE_ERROR_STATUS[code];
  if (status === 401) return [status, 'invalid_client'];
  if (status === 403) return [status, 'access_denied'];
  if (status === 429 || status === 503 || status === 507) return [status, 'temporarily_unavailable'];
  return [status, 'invalid_request'];
}

async function listen(handler: http.RequestListener): Promise<{ base: string; close: () => void }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe('every ServiceErrorCode, and our own failure, in every shape', () => {
  const servers: { close: () => void }[] = [];
  let person: string;
  let host: string;
  let management: string;
  let listener: string;
  let mcp: string;
  const logged: unknown[] = [];
  beforeAll(async () => {
    // The person's router with one route that throws the code named in its path (no services needed).
    const throwing = defineRoute({
      method: 'get',
      path: '/throw/:code',
      summary: 'throws',
      auth: 'none',
      response: z.object({}),
      handler: ({ params }) => {
        throw thrown(params.code);
      },
    });
    const services = { photos: { maxBytes: 1024 } } as unknown as PersonApiServices;
    const apps = {
      person: express().use(createPersonRouter({ services, routes: [throwing] })),
      // The host API's `pair` and the management API's `delete`, each refusing with the code it is given.
      host: express().use(
        createConnectRouter({
          pairing: {
            pair: async (i: { code: unknown }) => Promise.reject(thrown(String(i.code))),
          } as unknown as Pairing,
          onError: (e) => logged.push(e),
        }),
      ),
      management: express().use(
        createManagementRouter({
          management: {
            authenticate: async () => ({ via: 'app', userId: 'u' }),
            delete: async (_c: unknown, id: unknown) => Promise.reject(thrown(String(id))),
          } as unknown as AgentManagement,
          // One caller throws every code: a bucket it never empties (the bucket has its own test).
          rateLimit: createRateLimiter({ burst: 10_000, perMinute: 10_000 }),
          onError: (e) => logged.push(e),
        }),
      ),
    };
    // The service's own listener with a step that throws the code of the x-code header: its refusal is
    // answered by the path's protocol (the server's answerByPath).
    const step: Step = (req, _res, next) => {
      if (req.headers['x-code']) throw thrown(String(req.headers['x-code']));
      next();
    };
    const started = await Promise.all([
      listen(apps.person),
      listen(apps.host),
      listen(apps.management),
      listen(createServiceListener({ steps: [step], fallback: () => {}, onError: answerByPath })),
      // The tool server's own 500: its credentials check fails unexpectedly.
      listen(
        createMcpHandler({
          ops: {} as never,
          auth: { verify: async () => Promise.reject(new Error('database gone')) },
          mcpUrl: 'http://127.0.0.1/functions/v1/svc-mcp',
          onError: (e) => logged.push(e),
        }),
      ),
    ]);
    servers.push(...started);
    [person, host, management, listener, mcp] = started.map((s) => s.base) as [
      string,
      string,
      string,
      string,
      string,
    ];
  });
  afterAll(() => {
    for (const s of servers) s.close();
  });

  const post = (url: string, body: unknown) =>
    raw(url, 'POST', { 'content-type': 'application/json' }, JSON.stringify(body));

  it.each(SERVICE_ERROR_CODES.map((c) => [c]))('%s', async (code) => {
    const status = SERVICE_ERROR_STATUS[code];
    // Every refusal is the caller's (4xx) except a full disk (507) and a database that did not answer (503):
    // the service's, and worth a retry.
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(code === 'STORAGE_FULL' || code === 'STORAGE_UNAVAILABLE' ? 600 : 500);
    const wire = wireCode(code);
    expect(wire).toMatch(/^[a-z][a-z0-9_]*$/);

    const p = await raw(`${person}/throw/${code}`, 'GET');
    expectApiError(p, status, wire);
    expect(p.body).toEqual({ error: wire, message: `refused: ${code}`, field: 'x' });
    if (status === 401) expect(p.headers['www-authenticate']).toBe('Bearer');

    // doc2 names bad input `invalid_<field>` and renames a few codes; every other one is the shared code.
    const doc2 = code === 'INVALID_INPUT' ? 'invalid_x' : undefined;
    const h = await post(host, { action: 'pair', code });
    expectApiError(h, status, doc2 ?? (DOC2_CODE_ALIASES as Record<string, string>)[code] ?? wire);
    const m = await post(management, { action: 'delete', id: code });
    expectApiError(m, status, doc2 ?? (MANAGEMENT_CODE_ALIASES as Record<string, string>)[code] ?? wire);

    const at = (path: string) => raw(`${listener}${path}`, 'GET', { 'x-code': code });
    expectJsonRpcError(await at(MOUNTS.mcp), status, rpcOf(code), wire);
    expectJsonRpcError(await at(`${MOUNTS.mcp}/?x=1`), status, rpcOf(code), wire);
    const [oauthStatus, oauthCode] = oauthOf(code);
    expectOAuthError(await at(`${MOUNTS.oauth}/token`), oauthStatus, oauthCode);
    expectApiError(await at(`${MOUNTS.app}/anything`), status, wire);

    const tool = toToolError(new ServiceError(code, 'm'));
    expect(tool.structuredContent.error.code).toBe(wire);
    expect(tool.content[0]!.text).toBe(`${wire}: m`);
  });

  it('answers our own failure generically in every shape, and logs it', async () => {
    const internal = { message: expect.not.stringContaining('secret') };
    const p = await raw(`${person}/throw/BOOM`, 'GET');
    expectApiError(p, 500, 'internal_error');
    expect(p.body).toMatchObject(internal);
    expectApiError(await post(host, { action: 'pair', code: 'BOOM' }), 500, 'internal_error');
    expectApiError(await post(management, { action: 'delete', id: 'BOOM' }), 500, 'internal_error');
    const at = (path: string) => raw(`${listener}${path}`, 'GET', { 'x-code': 'BOOM' });
    const rpc = await at(MOUNTS.mcp);
    expectJsonRpcError(rpc, 500, RPC_INTERNAL_ERROR, 'internal_error');
    expect(rpc.body.error).toMatchObject(internal);
    expectOAuthError(await at(`${MOUNTS.oauth}/register`), 500, 'server_error');
    expectApiError(await at('/'), 500, 'internal_error');
    const call = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const handler = await raw(
      mcp,
      'POST',
      { 'content-type': 'application/json', host: '127.0.0.1', authorization: 'Bearer svc_ct_x' },
      JSON.stringify(call),
    );
    expectJsonRpcError(handler, 500, RPC_INTERNAL_ERROR, 'internal_error');
    // A full disk (507) is logged too; our own failures are logged with what really happened.
    expect(logged.map((e) => (e as Error).message).filter((m) => !m.startsWith('refused'))).toEqual([
      'secret internals',
      'secret internals',
      'database gone',
    ]);
  });
});
