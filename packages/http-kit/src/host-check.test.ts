import { describe, expect, it } from 'vitest';
import { createHostCheck, hostGuard } from './host-check.js';

describe('createHostCheck', () => {
  it('takes the public host with its port and extra hosts, nothing else', () => {
    const ok = createHostCheck('https://svc.example.com/functions/v1/svc-mcp', ['internal:8787']);
    expect(ok('svc.example.com')).toBe(true);
    expect(ok('SVC.example.com')).toBe(true);
    expect(ok('internal:8787')).toBe(true);
    expect(ok('svc.example.com:444')).toBe(false);
    expect(ok('evil.example.com')).toBe(false);
    expect(ok('localhost')).toBe(false);
    expect(ok(undefined)).toBe(false);
  });

  it('on a loopback base URL takes any loopback host and port, never a rebound name', () => {
    const ok = createHostCheck('http://localhost:0/functions/v1/svc-mcp');
    expect(ok('127.0.0.1:41234')).toBe(true);
    expect(ok('localhost:8787')).toBe(true);
    expect(ok('[::1]:9000')).toBe(true);
    expect(ok('evil.example.com')).toBe(false);
    expect(ok('127.0.0.1.evil.example.com')).toBe(false);
  });
});

describe('createHostCheck, asked again and again', () => {
  it('answers a value the same every time: remembering accepted ones never lets another in', () => {
    const ok = createHostCheck('http://localhost:0/functions/v1/svc-mcp');
    for (let round = 0; round < 3; round++) {
      for (let port = 1000; port < 1040; port++) expect(ok(`127.0.0.1:${port}`)).toBe(true);
      expect(ok('evil.example.com')).toBe(false);
      expect(ok('127.0.0.1.evil.example.com:1000')).toBe(false);
      expect(ok('LOCALHOST:1000')).toBe(true);
      expect(ok('localhost.evil:1000')).toBe(false);
    }
  });
});

describe('hostGuard', () => {
  it('answers 403 on any path for a Host that is not the service, and passes the service on', async () => {
    const { createServer } = await import('node:http');
    const guard = hostGuard('https://svc.example.com');
    const server = createServer((req, res) => guard(req, res, () => res.end('passed')));
    const jsonRpc = hostGuard('https://svc.example.com', {
      refuse: (err, _req, res) => {
        res.statusCode = 403;
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: err.message } }));
      },
    });
    const other = createServer((req, res) => jsonRpc(req, res, () => res.end('passed')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const { request } = await import('node:http');
    const get = (host: string, path: string, to = port) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: to, path, headers: { host } }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of [
      '/',
      '/functions/v1/svc-app/auth/signin',
      '/connect',
      '/functions/v1/svc-oauth/authorize',
    ]) {
      const bad = await get('rebound.attacker.example', path);
      expect(bad.status, path).toBe(403);
      expect(JSON.parse(bad.body)).toEqual({
        error: 'host_not_allowed',
        message:
          'Host rebound.attacker.example is not this service; use the address the service was configured with.',
      });
    }
    await expect(get('svc.example.com', '/')).resolves.toEqual({ status: 200, body: 'passed' });
    // A server with another protocol on a path answers the same refusal in that protocol's shape.
    const { port: otherPort } = other.address() as { port: number };
    const rpc = await get('rebound.attacker.example', '/mcp', otherPort);
    expect(rpc.status).toBe(403);
    expect(JSON.parse(rpc.body)).toMatchObject({ jsonrpc: '2.0', error: { message: /not this service/ } });
    server.close();
    other.close();
  });
});

describe('hostGuard with allowAddresses (the probe routes, issue 46)', () => {
  it('takes IP addresses and the configured name, never another name', () => {
    const guard = hostGuard('https://svc.example.com', {
      allowAddresses: true,
      refuse: (e, _q, res) => res.end(e.code),
    });
    const answer = (host: string) => {
      let passed = false;
      let refused = '';
      guard(
        { headers: { host } } as never,
        { end: (c: string) => (refused = c) } as never,
        () => (passed = true),
      );
      return passed ? 'next' : refused;
    };
    expect(answer('10.0.0.7:8787')).toBe('next');
    expect(answer('[fd00::7]:8787')).toBe('next');
    expect(answer('svc.example.com')).toBe('next');
    expect(answer('rebound.attacker.example')).toBe('HOST_NOT_ALLOWED');
    expect(answer('10.0.0.7.nip.io')).toBe('HOST_NOT_ALLOWED');
  });
});
