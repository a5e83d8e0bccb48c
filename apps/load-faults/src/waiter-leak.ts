// Many svc_answers long-polls opened and abandoned (the socket closed mid-wait): the service must release
// every waiter at once, keep no descriptors, and let no abandoned waiter swallow the next answer.
import http from 'node:http';
import { request } from './http.js';
import { connectMcp } from './mcp.js';
import type { ServiceProcess } from './service.js';
import { APP, MCP, pairNewConnection, signUpPeople } from './setup.js';

export interface WaiterLeakOptions {
  svc: ServiceProcess;
  connections: number;
  /** Long-polls per connection (inside the bucket's burst of 60). */
  pollsPerConnection: number;
}

export interface WaiterLeakResult {
  opened: number;
  /** svc_answers_waiters once every poll was waiting. */
  waitersPeak: number;
  /** svc_answers_waiters after the disconnects (after `releaseMs`). */
  waitersAfter: number;
  releaseMs: number;
  fdsBefore: number;
  fdsAfter: number;
  /** A reply the person sent after the disconnects reached the next svc_answers call. */
  nextAnswerDelivered: boolean;
}

async function waiters(svc: ServiceProcess): Promise<number> {
  return (await svc.metrics()).get('svc_answers_waiters') ?? Number.NaN;
}

async function until(what: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await what()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens `connections × pollsPerConnection` long-polls over raw HTTP, waits until all wait, then cuts them. */
export async function runWaiterLeak(o: WaiterLeakOptions): Promise<WaiterLeakResult> {
  const { svc } = o;
  const [person] = await signUpPeople(svc.base, 1, 'waiters');
  if (!person) throw new Error('no person');
  const conns = [];
  for (let i = 0; i < o.connections; i++)
    conns.push(await pairNewConnection(svc.base, person, `poller-${i}`));
  const fdsBefore = svc.sample().openFds;
  const base = await waiters(svc);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'svc_answers', arguments: { wait: 25 } },
  });
  const open: http.ClientRequest[] = [];
  for (const c of conns) {
    for (let j = 0; j < o.pollsPerConnection; j++) {
      const req = http.request(`${svc.base}${MCP}`, {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${c.token}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      });
      req.on('error', () => {});
      req.end(body);
      open.push(req);
    }
  }
  const opened = open.length;
  let waitersPeak = 0;
  await until(async () => {
    waitersPeak = (await waiters(svc)) - base;
    return waitersPeak >= opened;
  }, 15_000);
  const cutAt = Date.now();
  for (const req of open) req.destroy();
  let waitersAfter = Number.NaN;
  await until(async () => {
    waitersAfter = (await waiters(svc)) - base;
    return waitersAfter === 0;
  }, 10_000);
  const releaseMs = Date.now() - cutAt;
  // Sockets close asynchronously on the server's side too; give them a moment before counting.
  await until(async () => svc.sample().openFds <= fdsBefore + 2, 5_000);
  const fdsAfter = svc.sample().openFds;

  // The person answers now: the next call must get it (no abandoned waiter claimed it).
  const first = conns[0];
  if (!first) throw new Error('no connection');
  const text = `after the disconnects ${Date.now()}`;
  const sent = await request(`${svc.base}${APP}/agents/${first.agentId}/messages`, {
    headers: { authorization: `Bearer ${person.token}` },
    body: { text },
  });
  if (sent.status !== 201) throw new Error(`reply answered ${sent.status}`);
  const mcp = await connectMcp(`${svc.base}${MCP}`, first.token);
  const got = await mcp.call('svc_answers', { wait: 5 });
  await mcp.close();
  const nextAnswerDelivered = ((got.structured?.answers ?? []) as { text: string }[]).some(
    (a) => a.text === text,
  );
  return { opened, waitersPeak, waitersAfter, releaseMs, fdsBefore, fdsAfter, nextAnswerDelivered };
}
