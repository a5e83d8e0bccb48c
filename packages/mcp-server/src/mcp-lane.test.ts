// withMcpLane on a real server on 127.0.0.1: which requests take the lane, its steps in order, a step that
// answers or throws.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { McpHandler } from './mcp-handler.js';
import { type PlainMiddleware, withMcpLane } from './mcp-lane.js';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(before: PlainMiddleware[]) {
  const handler: McpHandler = async (_req, res) => {
    res.end(`lane ${String(res.getHeader('x-steps') ?? '')}`);
  };
  const app: http.RequestListener = (_req, res) => res.end('app');
  server = http.createServer(withMcpLane(app, '/mcp', handler, before));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (method: string, path: string) => {
    const res = await fetch(base + path, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
    return `${res.status} ${await res.text()}`;
  };
}

const mark =
  (name: string): PlainMiddleware =>
  (_req, res, next) => {
    res.setHeader('x-steps', `${String(res.getHeader('x-steps') ?? '')}${name}`);
    next();
  };

it('takes exactly POST to the path, after its steps in order; everything else goes to the app', async () => {
  const call = await serve([mark('a'), mark('b')]);
  expect(await call('POST', '/mcp')).toBe('200 lane ab');
  expect(await call('GET', '/mcp')).toBe('200 app');
  expect(await call('POST', '/mcp?x=1')).toBe('200 app');
  expect(await call('POST', '/mcp/')).toBe('200 app');
  expect(await call('POST', '/other')).toBe('200 app');
});

it('stops at a step that answers, and answers 500 for a step that throws (the process stays up)', async () => {
  const refuse: PlainMiddleware = (_req, res) => {
    res.statusCode = 403;
    res.end('refused');
  };
  expect(await (await serve([mark('a'), refuse, mark('b')]))('POST', '/mcp')).toBe('403 refused');
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  const boom: PlainMiddleware = () => {
    throw new Error('step failed');
  };
  const call = await serve([boom]);
  expect(await call('POST', '/mcp')).toMatch(/^500 .*internal_error/);
  expect(await call('POST', '/mcp')).toMatch(/^500 /);
});
