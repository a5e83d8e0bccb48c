// The action endpoint of doc2's host and management APIs, over real HTTP on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceError } from '@screen-service/registry/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { type ActionEndpointOptions, createActionEndpoint } from './action-endpoint.js';
import { bearerToken } from './bearer.js';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(options: ActionEndpointOptions<string, http.IncomingMessage>) {
  server = http.createServer(createActionEndpoint(options));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return async (init: RequestInit & { json?: unknown } = {}) => {
    const res = await fetch(url, {
      method: 'POST',
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
}

const actions: ActionEndpointOptions<string, http.IncomingMessage>['actions'] = {
  echo: ({ body, caller }) => ({ caller, got: body.value }),
  pair: () => {
    throw new ServiceError('PROFILE_ALREADY_ADDED', 'Already added.');
  },
  name: ({ body }) => {
    throw new ServiceError('INVALID_INPUT', `name: ${String(body.name)} is too long`, { field: 'name' });
  },
  slow: () => {
    throw new ServiceError('RATE_LIMITED', 'Slow down.', { details: { retryAfterS: 3 } });
  },
  boom: () => {
    throw new Error('secret internals');
  },
};

describe('createActionEndpoint', () => {
  it('dispatches on action and answers the result', async () => {
    const call = await serve({ actions, spelling: 'host' });
    expect(await call({ json: { action: 'echo', value: 7 } })).toMatchObject({
      status: 200,
      body: { got: 7 },
    });
  });

  it('refuses what is not an action call, in the API spelling', async () => {
    const errors: unknown[] = [];
    const call = await serve({ actions, spelling: 'management', onError: (e) => errors.push(e) });
    const unknown = await call({ json: { action: 'toString' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      error: 'invalid_action',
      message: 'Unknown action "toString"; this endpoint serves: echo, pair, name, slow, boom.',
      field: 'action',
    });
    expect((await call({ json: [1] })).body).toMatchObject({ error: 'invalid_body', field: 'body' });
    // A scalar is not JSON this API reads (strict, as Express's parser was).
    expect((await call({ json: 'text' })).body).toMatchObject({ error: 'invalid_json', field: 'body' });
    // An empty JSON body reads as {}: no action named.
    expect((await call({})).body).toMatchObject({
      error: 'invalid_action',
      message: /^Unknown action undefined;/,
    });
    expect((await call({ body: '{nope' })).body).toMatchObject({ error: 'invalid_json' });
    const get = await call({ method: 'GET' });
    expect([get.status, get.headers.get('allow'), get.body.error]).toEqual([
      405,
      'POST',
      'method_not_allowed',
    ]);
    expect((await call({ json: { action: 'pair' } })).body.error).toBe('already_added');
    expect((await call({ json: { action: 'name', name: 'x' } })).body.error).toBe('invalid_name');
    const slow = await call({ json: { action: 'slow' } });
    expect([slow.status, slow.headers.get('retry-after')]).toEqual([429, '3']);
    const boom = await call({ json: { action: 'boom' } });
    expect(boom).toMatchObject({ status: 500, body: { error: 'internal_error' } });
    expect(JSON.stringify(boom.body)).not.toContain('secret');
    expect(errors).toHaveLength(1);
  });

  it('authenticates before reading the body, and hands the caller to the action', async () => {
    const call = await serve({
      actions,
      spelling: 'management',
      headers: { 'cache-control': 'no-store' },
      authenticate: async (req) => {
        const token = bearerToken(req.headers.authorization);
        if (token !== 'svc_mt_good') throw new ServiceError('UNAUTHORIZED', 'Send a management token.');
        return 'owner';
      },
    });
    const huge = JSON.stringify({ action: 'echo', pad: 'x'.repeat(100 * 1024) });
    const refused = await call({ body: huge });
    expect([refused.status, refused.body.error, refused.headers.get('www-authenticate')]).toEqual([
      401,
      'unauthorized',
      'Bearer',
    ]);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const ok = await call({
      json: { action: 'echo', value: 1 },
      headers: { authorization: 'Bearer svc_mt_good' },
    });
    expect(ok.body).toEqual({ caller: 'owner', got: 1 });
    const large = await call({ body: huge, headers: { authorization: 'Bearer svc_mt_good' } });
    expect([large.status, large.body.error]).toEqual([413, 'body_too_large']);
  });
});
