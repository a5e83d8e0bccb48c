import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ServiceError } from '@screen-service/registry/kernel';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJsonFallbacks } from './fallbacks.js';
import { defineRoute, type RouteDef } from './route.js';
import { createPersonRouter, ResponseMismatchError } from './router.js';
import type { PersonApiServices } from './services.js';

// These routes need no use cases: the router's own behaviour (validation, mapping, checks) is under test.
const services = { photos: { maxBytes: 64 } } as unknown as PersonApiServices;

const echo = defineRoute({
  method: 'post',
  path: '/echo/:name',
  summary: 'echo',
  auth: 'none',
  body: z.object({ n: z.number().int().min(1) }),
  query: z.object({ times: z.coerce.number().int().max(3).optional() }),
  response: z.object({ name: z.string(), n: z.number(), times: z.number() }),
  handler: ({ params, body, query }) => ({ name: params.name, n: body.n, times: query.times ?? 1 }),
});

const liar = defineRoute({
  method: 'get',
  path: '/liar',
  summary: 'answers outside its schema',
  auth: 'none',
  response: z.object({ ok: z.boolean() }),
  // The cast stands for a handler whose types drifted from the schema (e.g. an `any` from storage).
  handler: () => ({ ok: 'yes' }) as unknown as { ok: boolean },
});

const refusing = defineRoute({
  method: 'get',
  path: '/refuse',
  summary: 'refuses',
  auth: 'none',
  handler: () => {
    throw new ServiceError('TOO_MANY_ATTEMPTS', 'Wait a minute.');
  },
});

const crashing = defineRoute({
  method: 'get',
  path: '/crash',
  summary: 'crashes',
  auth: 'none',
  handler: () => {
    throw new Error('secret internals');
  },
});

const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

async function serve(routes: RouteDef[], checkResponses = false) {
  const errors: unknown[] = [];
  const app = express();
  app.use(createPersonRouter({ services, routes, checkResponses, onError: (e) => errors.push(e) }));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (path: string, init?: RequestInit) => {
    const r = await fetch(base + path, init);
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  };
  return { call, errors, base };
}

const post = (body: string) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('createPersonRouter', () => {
  it('passes typed params, body and query to the handler', async () => {
    const { call } = await serve([echo]);
    expect(await call('/echo/ada?times=2', post('{"n":3}'))).toEqual({
      status: 200,
      body: { name: 'ada', n: 3, times: 2 },
    });
  });

  it('answers a change without an ETag and a read with one, both as JSON in UTF-8', async () => {
    const read = defineRoute({
      method: 'get',
      path: '/read',
      summary: 'read',
      auth: 'none',
      response: z.object({ ok: z.boolean() }),
      handler: () => ({ ok: true }),
    });
    const { base } = await serve([echo, read]);
    const changed = await fetch(`${base}/echo/ada`, post('{"n":2}'));
    expect(changed.status).toBe(200);
    expect(changed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(changed.headers.get('etag')).toBeNull();
    const text = await changed.text();
    expect(changed.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toEqual({ name: 'ada', n: 2, times: 1 });
    const got = await fetch(`${base}/read`);
    expect(got.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(got.headers.get('etag')).toMatch(/^W\/"/);
  });

  it('names the offending field in a 400 invalid_input', async () => {
    const { call } = await serve([echo]);
    const bad = await call('/echo/ada', post('{"n":0}'));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_input', field: 'n' });
    const query = await call('/echo/ada?times=9', post('{"n":1}'));
    expect(query.body).toMatchObject({ error: 'invalid_input', field: 'times' });
  });

  it('maps body-parser failures: 400 invalid_json, 413 body_too_large', async () => {
    const { call } = await serve([echo]);
    expect(await call('/echo/ada', post('{"n":'))).toMatchObject({
      status: 400,
      body: { error: 'invalid_json', field: 'body' },
    });
    const big = await call('/echo/ada', post(JSON.stringify({ n: 1, pad: 'x'.repeat(300_000) })));
    expect(big).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
    expect(big.body.message).toContain('256 KB');
  });

  it('maps a ServiceError by the one table and hides anything else behind a 500', async () => {
    const { call, errors } = await serve([refusing, crashing]);
    expect(await call('/refuse')).toEqual({
      status: 429,
      body: { error: 'too_many_attempts', message: 'Wait a minute.' },
    });
    const crash = await call('/crash');
    expect(crash).toEqual({
      status: 500,
      body: { error: 'internal_error', message: 'Something went wrong on our side.' },
    });
    expect(JSON.stringify(crash.body)).not.toContain('secret');
    expect(errors).toHaveLength(1);
  });

  it('with checkResponses, an answer outside its schema is a 500 reported to onError', async () => {
    const checked = await serve([liar], true);
    expect((await checked.call('/liar')).status).toBe(500);
    expect(checked.errors[0]).toBeInstanceOf(ResponseMismatchError);
    expect(String((checked.errors[0] as Error).message)).toContain(
      'GET /liar answered outside its schema: ok',
    );
    const unchecked = await serve([liar], false);
    expect(await unchecked.call('/liar')).toEqual({ status: 200, body: { ok: 'yes' } });
  });

  it('answers OPTIONS on a known path with its methods; another method or path falls through to the 404', async () => {
    const app = express();
    app.use(createPersonRouter({ services, routes: [echo, refusing] }));
    app.use(...createJsonFallbacks(() => {}));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    closers.push(() => server.close());
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const options = await fetch(`${base}/echo/ada`, { method: 'OPTIONS' });
    expect(options.status).toBe(200);
    expect(options.headers.get('allow')).toBe('POST');
    expect(await options.text()).toBe('POST');
    const head = await fetch(`${base}/refuse`, { method: 'HEAD' });
    expect(head.status).toBe(429);
    for (const [method, path] of [
      ['GET', '/echo/ada'],
      ['POST', '/nowhere'],
      ['OPTIONS', '/nowhere'],
    ] as const) {
      const r = await fetch(base + path, { method });
      expect(r.status).toBe(404);
      expect(await r.json()).toEqual({ error: 'not_found', message: `No route for ${method} ${path}` });
    }
  });

  it('refuses a malformed path parameter with 400 invalid_input naming it', async () => {
    const { call } = await serve([echo]);
    const bad = await call('/echo/%E0', post('{"n":1}'));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_input', field: 'name' });
  });

  it('types the handler from the schemas (compile-time checks)', () => {
    defineRoute({
      method: 'get',
      path: '/a/:agentId',
      summary: 's',
      auth: 'user',
      response: z.object({ id: z.string() }),
      handler: ({ params, user }) => {
        // @ts-expect-error: the path has no :other
        void params.other;
        return { id: `${params.agentId}${user.userId}` };
      },
    });
    defineRoute({
      method: 'post',
      path: '/b',
      summary: 's',
      auth: 'none',
      body: z.object({ n: z.number() }),
      response: z.object({ n: z.number() }),
      // @ts-expect-error: the answer must match the response schema
      handler: ({ body }) => ({ n: String(body.n) }),
    });
    defineRoute({
      method: 'post',
      path: '/c',
      summary: 's',
      auth: 'none',
      body: z.object({ n: z.number() }),
      handler: ({ body, user }) => {
        // @ts-expect-error: the body has no `m`
        void body.m;
        // @ts-expect-error: a public route has no user
        void user.userId;
        return undefined;
      },
    });
    expect(true).toBe(true);
  });
});
