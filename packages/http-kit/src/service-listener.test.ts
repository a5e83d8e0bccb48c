// The service's one request listener on a real server on 127.0.0.1: every request takes the steps once, in
// order, then its path's handler or the app; a step or handler that throws is answered, the process stays up.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import {
  createServiceListener,
  type NodeHandler,
  type PrefixHandler,
  type Step,
} from './service-listener.js';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const mark =
  (name: string): Step =>
  (_req, res, next) => {
    res.setHeader('x-steps', `${String(res.getHeader('x-steps') ?? '')}${name}`);
    next();
  };

/** The prefix handler of these tests: answers `/known...` with the URL it saw, hands anything else on. */
const api: PrefixHandler = (req, res, next) => {
  if (req.url?.startsWith('/known')) res.end(`api ${req.url}`);
  else if (req.url === '/broken') next(new Error('api failed'));
  else next();
};

async function serve(steps: Step[], route: NodeHandler = (_req, res) => res.end('route')) {
  const failures: string[] = [];
  server = http.createServer(
    createServiceListener({
      steps,
      routes: { '/mcp': route },
      prefixes: { '/api/v1': api },
      fallback: (req, res) => res.end(`app ${req.url}`),
      onError: (err, req, res) => {
        failures.push(`${req.url} ${(err as Error).message}`);
        res.statusCode = 500;
        res.end('failed');
      },
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string) => {
    const res = await fetch(base + path, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
    return `${res.status} ${await res.text()} ${res.headers.get('x-steps') ?? '-'}`;
  };
  return { call, failures };
}

it('runs the steps once, in order, on every request, then the path handler or the app', async () => {
  const { call } = await serve([mark('a'), mark('b')]);
  expect(await call('POST', '/mcp')).toBe('200 route ab');
  expect(await call('GET', '/mcp')).toBe('200 route ab');
  expect(await call('POST', '/mcp?x=1')).toBe('200 route ab');
  expect(await call('POST', '/mcp/')).toBe('200 route ab');
  expect(await call('POST', '/mcp/deeper')).toBe('200 app /mcp/deeper ab');
  expect(await call('GET', '/other')).toBe('200 app /other ab');
});

it('a prefix handler sees the URL below its prefix; what it hands on reaches the app with the URL whole', async () => {
  const { call, failures } = await serve([mark('a')]);
  expect(await call('GET', '/api/v1/known/1?x=2')).toBe('200 api /known/1?x=2 a');
  // Any letter case of the prefix, as a mounted Express router matched it.
  expect(await call('GET', '/API/V1/known')).toBe('200 api /known a');
  // The prefix alone, or with only a query, is its root.
  expect(await call('GET', '/api/v1')).toBe('200 app /api/v1 a');
  expect(await call('GET', '/api/v1?x=1')).toBe('200 app /api/v1?x=1 a');
  // Handed on: the app sees the original URL.
  expect(await call('GET', '/api/v1/unknown')).toBe('200 app /api/v1/unknown a');
  // Only at a segment boundary: /api/v10 is not under /api/v1.
  expect(await call('GET', '/api/v10/known')).toBe('200 app /api/v10/known a');
  // next(err) is answered as an error.
  expect(await call('GET', '/api/v1/broken')).toBe('500 failed a');
  expect(failures).toEqual(['/api/v1/broken api failed']);
});

it('stops at a step that answers; a step that throws or a handler that rejects is answered', async () => {
  const refuse: Step = (_req, res) => {
    res.statusCode = 403;
    res.end('refused');
  };
  expect(await (await serve([mark('a'), refuse, mark('b')])).call('POST', '/mcp')).toBe('403 refused a');
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  const boom: Step = () => {
    throw new Error('step failed');
  };
  const first = await serve([boom]);
  expect(await first.call('GET', '/other')).toBe('500 failed -');
  expect(first.failures).toEqual(['/other step failed']);
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  const second = await serve([], async () => {
    throw new Error('handler failed');
  });
  expect(await second.call('POST', '/mcp')).toBe('500 failed -');
  expect(await second.call('POST', '/mcp')).toBe('500 failed -');
  expect(second.failures).toEqual(['/mcp handler failed', '/mcp handler failed']);
});
