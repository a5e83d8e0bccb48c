import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  classifyAddress,
  createOutboundGuard,
  OutboundRefusedError,
  pinnedLookup,
  type ResolvedAddress,
} from './outbound.js';

/** A stub resolver: answers from the table, counts calls, never touches DNS. */
function stub(table: Record<string, string[] | string[][]>) {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const entry = table[host];
    if (!entry) throw new Error(`ENOTFOUND ${host}`);
    // A list of lists answers the next one per call (a rebinding name).
    const answer = Array.isArray(entry[0])
      ? (entry as string[][])[Math.min(calls.filter((c) => c === host).length - 1, entry.length - 1)]!
      : (entry as string[]);
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1%eth0', 'link-local'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['not-an-ip', 'invalid'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });
});

describe('createOutboundGuard', () => {
  const refused = async (p: Promise<unknown>, pattern: RegExp) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OutboundRefusedError);
    expect((err as OutboundRefusedError).code).toBe('OUTBOUND_REFUSED');
    expect((err as Error).message).toMatch(pattern);
  };

  it('refuses names that resolve to private, loopback, link-local and IPv4-mapped addresses', async () => {
    const { resolve } = stub({
      'ten.example': ['10.0.0.5'],
      'home.example': ['127.0.0.1'],
      'meta.example': ['169.254.169.254'],
      'mapped.example': ['::ffff:127.0.0.1'],
      'mapped-hex.example': ['::ffff:a9fe:a9fe'],
      'ula.example': ['fd12::1'],
      'mixed.example': ['93.184.215.14', '10.0.0.1'],
      'metadata.google.internal': ['169.254.169.254'],
    });
    const guard = createOutboundGuard({ resolve });
    await refused(guard.check('https://ten.example/x'), /10\.0\.0\.5, a private address/);
    await refused(guard.check('https://home.example/x'), /loopback/);
    await refused(guard.check('https://meta.example/x'), /link-local/);
    await refused(guard.check('https://mapped.example/x'), /loopback/);
    await refused(guard.check('https://mapped-hex.example/x'), /link-local/);
    await refused(guard.check('https://ula.example/x'), /private/);
    await refused(guard.check('https://mixed.example/x'), /10\.0\.0\.1/);
    await refused(guard.check('https://metadata.google.internal/computeMetadata'), /link-local/);
  });

  it('refuses literal addresses and localhost without asking the resolver', async () => {
    const { resolve, calls } = stub({});
    const guard = createOutboundGuard({ resolve });
    await refused(guard.check('https://127.0.0.1:6443/api'), /loopback/);
    await refused(guard.check('https://[::ffff:127.0.0.1]/'), /loopback/);
    await refused(guard.check('https://169.254.169.254/latest/meta-data'), /link-local/);
    await refused(guard.check('https://localhost:6443/'), /loopback/);
    await refused(guard.check('https://a.localhost/'), /loopback/);
    expect(calls).toEqual([]);
  });

  it('refuses http, credentials in the URL, names that do not resolve and non-URLs', async () => {
    const { resolve } = stub({ 'push.example': ['93.184.215.14'] });
    const guard = createOutboundGuard({ resolve });
    await refused(guard.check('http://push.example/x'), /only https/);
    await refused(guard.check('https://user:pw@push.example/x'), /user name or password/);
    await refused(guard.check('https://nowhere.example/x'), /does not resolve/);
    await refused(guard.check('not a url'), /not a URL/);
  });

  it('answers the one address it checked, once per check (a rebinding name cannot switch after the check)', async () => {
    const { resolve, calls } = stub({ 'rebind.example': [['93.184.215.14'], ['127.0.0.1']] });
    const guard = createOutboundGuard({ resolve });
    const target = await guard.check('https://rebind.example/x');
    expect(target).toMatchObject({ address: '93.184.215.14', family: 4 });
    expect(calls).toEqual(['rebind.example']);
    // The pinned lookup answers the checked address, never asks again.
    const answered = await new Promise((ok) => pinnedLookup(target)('rebind.example', {}, (_e, a) => ok(a)));
    expect(answered).toBe('93.184.215.14');
    expect(calls).toEqual(['rebind.example']);
    // The next check resolves again and sees the switch.
    await refused(guard.check('https://rebind.example/x'), /loopback/);
  });

  it('allows loopback (and http to it) only with allowLoopback, never private or link-local', async () => {
    const { resolve } = stub({ 'ten.example': ['10.0.0.5'] });
    const guard = createOutboundGuard({ resolve, allowLoopback: true });
    await expect(guard.check('http://127.0.0.1:9/x')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(guard.check('https://localhost/x')).resolves.toMatchObject({ address: '127.0.0.1' });
    await refused(guard.check('https://ten.example/x'), /private/);
    await refused(guard.check('https://169.254.169.254/'), /link-local/);
  });
});

describe('pinnedLookup with node:http', () => {
  let server: http.Server | undefined;
  afterEach(() => server?.close());

  it('connects to the checked loopback address whatever the name is', async () => {
    server = http.createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as AddressInfo;
    const { resolve } = stub({ 'push.test': [['127.0.0.1'], ['10.9.9.9']] });
    const target = await createOutboundGuard({ resolve, allowLoopback: true }).check(
      `http://push.test:${port}/`,
    );
    const body = await new Promise<string>((ok, fail) => {
      http
        .get(target.url, { lookup: pinnedLookup(target) as never }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => ok(text));
        })
        .on('error', fail);
    });
    expect(body).toBe('pinned');
  });
});
