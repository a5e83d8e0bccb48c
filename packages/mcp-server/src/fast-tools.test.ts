// The hot tools' direct path answers byte for byte what the SDK answers, for good and bad arguments alike.
import { seededRandom } from '@screen-service/registry/kernel';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDispatcher, type Dispatcher } from './dispatcher.js';
import { acceptNoArguments, compileObjectCheck } from './fast-tools.js';
import { createSvcMcpServer } from './svc-mcp-server.js';

const cores: TestCore[] = [];
afterEach(() => {
  for (const c of cores.splice(0)) c.close();
});

/** A core with seeded ids and a frozen clock, one connection, and a dispatcher with or without fast tools. */
async function stack(fastTools: boolean) {
  const core = createTestCore({ seed: 7, clockStart: 1_800_000_000_000 });
  cores.push(core);
  const random = seededRandom(11);
  const user = await seedUser(core.store, { random, at: 1 });
  const { token } = await seedConnection(core.store, user.id, ['coach', 'helper'], 'mcp', { random, at: 1 });
  const principal = await core.connectionAuth.verify(token);
  const dispatcher = await connectDispatcher(createSvcMcpServer({ ops: core.threadOps }), { fastTools });
  return { dispatcher, principal };
}

async function call(
  s: { dispatcher: Dispatcher; principal: unknown },
  id: number,
  params: Record<string, unknown>,
): Promise<string> {
  const [answer] = await s.dispatcher.dispatch([{ jsonrpc: '2.0', id, method: 'tools/call', params }], {
    authInfo: { token: 'verified', clientId: 'c', scopes: [], extra: { principal: s.principal } },
  });
  return JSON.stringify(answer);
}

const long = (n: number) => 'x'.repeat(n);
const CALLS: Record<string, unknown>[] = [
  { name: 'svc_show', arguments: { lines: 'choose@pick "Which one?" A|B|C' } },
  { name: 'svc_show', arguments: { lines: 'choose@pick "Which?" A|B', text: 'Quick one', agent: 'helper' } },
  { name: 'svc_show', arguments: { lines: 'timer 5m Break', text: '', extra: 1 } },
  { name: 'svc_show', arguments: { lines: 'nonsense here (' } },
  { name: 'svc_show', arguments: { lines: '' } },
  { name: 'svc_show', arguments: {} },
  { name: 'svc_show' },
  { name: 'svc_show', arguments: { lines: 5 } },
  { name: 'svc_show', arguments: { lines: 'timer 5m Break', text: null } },
  { name: 'svc_show', arguments: { lines: 'timer 5m Break', agent: '' } },
  { name: 'svc_show', arguments: { lines: 'timer 5m Break', agent: long(65) } },
  { name: 'svc_show', arguments: { lines: 'timer 5m Break', agent: 'nobody' } },
  { name: 'svc_show', arguments: { lines: long(20_001) } },
  { name: 'svc_show', arguments: ['lines'] },
  { name: 'svc_say', arguments: { text: 'hello' } },
  { name: 'svc_say', arguments: { text: long(4_001) } },
  { name: 'svc_say', arguments: { text: '   ' } },
  { name: 'svc_say', arguments: { text: 'hi', agent: 'coach', more: [1, 2] } },
  { name: 'svc_answers', arguments: {} },
  { name: 'svc_answers', arguments: { wait: 0, agent: 'helper' } },
  { name: 'svc_answers', arguments: { wait: 2.5 } },
  { name: 'svc_answers', arguments: { wait: -1 } },
  { name: 'svc_answers', arguments: { wait: 26 } },
  { name: 'svc_answers', arguments: { wait: '3' } },
  { name: 'svc_answers', arguments: { wait: 1e300 } },
  { name: 'svc_answers', arguments: { screen_id: '' } },
  { name: 'svc_answers', arguments: { screen_id: 'scr_missing' } },
  { name: 'svc_threads' },
  { name: 'svc_threads', arguments: {} },
  { name: 'svc_threads', arguments: { anything: true } },
  { name: 'svc_threads', arguments: [] },
  { name: 'svc_threads', arguments: {}, _meta: { progressToken: 1 } },
  { name: 'svc_nope', arguments: {} },
];

describe('fast tools', () => {
  it('answer every call exactly as the SDK does (same ids, same errors, same JSON)', async () => {
    const fast = await stack(true);
    const sdk = await stack(false);
    for (const [i, params] of CALLS.entries()) {
      const viaSdk = await call(sdk, i, params);
      expect(await call(fast, i, params), JSON.stringify(params).slice(0, 80)).toBe(viaSdk);
    }
    // The screen ids the good calls returned are the same, so the seeded stacks stayed in step.
    expect(await call(fast, 99, { name: 'svc_threads' })).toBe(await call(sdk, 99, { name: 'svc_threads' }));
  });

  it('accept only what the schema certainly accepts, with unknown keys dropped in schema order', () => {
    const check = compileObjectCheck({
      a: { kind: 'string', min: 1, max: 3, required: true },
      n: { kind: 'int', min: 0, max: 25 },
    });
    expect(check({ n: 2, z: 1, a: 'ab' })).toEqual({ a: 'ab', n: 2 });
    expect(Object.keys(check({ n: 2, a: 'ab' }) ?? {})).toEqual(['a', 'n']);
    for (const bad of [
      null,
      [],
      'a',
      { a: '' },
      { a: 'abcd' },
      { a: 'a', n: 1.5 },
      { a: 'a', n: Number.NaN },
    ]) {
      expect(check(bad)).toBeNull();
    }
    expect(check(Object.assign(Object.create({ a: 'inherited' }), {}))).toBeNull();
    expect(acceptNoArguments(undefined)).toEqual({});
    expect(acceptNoArguments([])).toBeNull();
  });
});
