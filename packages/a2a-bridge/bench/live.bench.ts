// Benchmark on the live service: person → bridge (svc-a2a run, its own process) → A2A echo (streaming) →
// phone, against baselines measured in the same run: the bare A2A call, and the same person → host →
// phone path with a host that answers at once (the service's share). The same for a webhook echo.
// Not part of `npm test`. TURNS=n sets the turns per path (default 100).
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHostClient, openMessageStream } from '@screen-service/connect-api/client';
import { readSse } from '@screen-service/io-kit/sse';
import { MOUNTS } from '@screen-service/registry/mounts';
import { fetchAgentCard } from '../src/card.js';
import { createA2AClient } from '../src/client.js';
import { writePrivateJson } from '../src/private-files.js';
import { startTestServer } from '../test/agents.js';
import { bridgeCli, bridgeDir, signUpPerson, startBridge, startService, waitFor } from '../test/live.js';

const TURNS = Number(process.env.TURNS ?? 100);
const WARM = 10;
const service = await startService();
const agents = await startTestServer('v10');
const person = await signUpPerson(service.base, 'bench@example.com');
const dirs: string[] = [];

// The phone: the person's live stream; each agent row wakes whoever waits for that agent.
const waiting = new Map<string, (at: number) => void>();
const phone = new AbortController();
void (async () => {
  const res = await fetch(`${service.base}${MOUNTS.app}/stream`, {
    headers: { authorization: `Bearer ${person.token}`, accept: 'text/event-stream' },
    signal: phone.signal,
  });
  for await (const ev of readSse(res.body!)) {
    if (ev.event !== 'message') continue;
    const { agent_id, message } = JSON.parse(ev.data) as { agent_id: string; message: { sender: string } };
    if (message.sender === 'agent') waiting.get(agent_id)?.(performance.now());
  }
})().catch(() => {});

/** One person → phone turn: send, then wait for the agent's row on the phone's stream. */
async function personTurn(agentId: string, text: string): Promise<number> {
  const arrived = new Promise<number>((resolve) => waiting.set(agentId, resolve));
  const start = performance.now();
  await person.say(agentId, text);
  return (await arrived) - start;
}

async function measure(run: (i: number) => Promise<number>): Promise<number[]> {
  for (let i = 0; i < WARM; i++) await run(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < TURNS; i++) times.push(await run(i));
  return times.sort((a, b) => a - b);
}
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const timed = async (f: () => Promise<unknown>) => {
  const s = performance.now();
  await f();
  return performance.now() - s;
};

// 1. The bare A2A streaming call (baseline).
const card = await fetchAgentCard(agents.url('stream'));
const a2a = createA2AClient(card);
const bareA2A = await measure((i) =>
  timed(async () => {
    for await (const _ of a2a.stream({
      messageId: `bare-${i}-${Math.random()}`,
      role: 'user',
      parts: [{ kind: 'text', text: `hi ${i}` }],
    })) {
      // drain
    }
  }),
);

// 2. The service's share: a host (connect-api client, this process) that answers at once.
const hostAgent = await person.addAgent('Host echo');
const hostClient = createHostClient({ url: service.base });
const hostPaired = await hostClient.pair({
  code: hostAgent.code,
  remote_ref: 'echo',
  host_name: 'bench',
  kind: 'hostfw',
});
hostClient.setToken(hostPaired.connector_token!);
const hostStop = new AbortController();
openMessageStream({
  connectUrl: hostClient.connectUrl,
  token: hostPaired.connector_token!,
  signal: hostStop.signal,
  onMessage: (m) => {
    void (async () => {
      await hostClient.turn(m.agent.id, [m.id]);
      await hostClient.reply({
        agent_id: m.agent.id,
        idempotency_key: `b.${m.id}`,
        text: `echo: ${m.text}`,
        turn: [m.id],
      });
    })();
  },
});
const hostEcho = await measure((i) => personTurn(hostAgent.agentId, `hi ${i}`));
hostStop.abort();

// 3. The bridge with the A2A echo, its own process.
const dir = bridgeDir();
dirs.push(dir);
const bridged = await person.addAgent('Bridged echo');
await bridgeCli(['pair', bridged.code, '--card', agents.url('stream'), '--url', service.base], dir);
// 4. A webhook echo through the same bridge, and its bare POST.
const hook = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => {
    raw += String(c);
  });
  req.on('end', () => {
    const body = JSON.parse(raw) as { messages: { text: string }[] };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ reply: `echo: ${body.messages.map((m) => m.text).join(' ')}` }));
  });
});
await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
const hooked = await person.addAgent('Webhook echo');
await bridgeCli(['pair', hooked.code, '--webhook', hookUrl, '--url', service.base], dir);
const bridge = startBridge(['run'], dir);
await waitFor('the bridge to serve', async () =>
  bridge.out.stdout.includes('serving 2 agent(s)') ? true : undefined,
);
const viaBridge = await measure((i) => personTurn(bridged.agentId, `hi ${i}`));
const viaWebhook = await measure((i) => personTurn(hooked.agentId, `hi ${i}`));
const bareHook = await measure((i) =>
  timed(() =>
    fetch(hookUrl, { method: 'POST', body: JSON.stringify({ messages: [{ text: `hi ${i}` }] }) }).then((r) =>
      r.text(),
    ),
  ),
);

// 5. The durable writes of one turn: four fsynced atomic file writes (turn, task id, outbox entry, turn cleared).
const durable = await measure((i) =>
  timed(async () => {
    for (let k = 0; k < 4; k++)
      await writePrivateJson(join(dir, 'bench-durable.json'), { i, k, rows: ['msg_x'] });
  }),
);

const line = (name: string, t: number[]) =>
  console.log(
    `${name.padEnd(46)} p50 ${pct(t, 50).toFixed(1).padStart(6)} ms   p99 ${pct(t, 99).toFixed(1).padStart(6)} ms`,
  );
console.log(`turns per path: ${TURNS} (after ${WARM} warm-up), one at a time, 127.0.0.1, shared machine`);
line('bare A2A streaming call (baseline)', bareA2A);
line('person → host answering at once → phone', hostEcho);
line('person → bridge → A2A echo → phone', viaBridge);
line('bare webhook POST (baseline)', bareHook);
line('person → bridge → webhook echo → phone', viaWebhook);
line('durable writes of one turn (4 fsynced files)', durable);
const ratio = (a: number[], b: number[], p: number) => (pct(a, p) / pct(b, p)).toFixed(2);
console.log(
  `ratio bridge A2A / bare A2A:               p50 ${ratio(viaBridge, bareA2A, 50)}x  p99 ${ratio(viaBridge, bareA2A, 99)}x`,
);
console.log(
  `ratio bridge A2A / host echo:              p50 ${ratio(viaBridge, hostEcho, 50)}x  p99 ${ratio(viaBridge, hostEcho, 99)}x`,
);
console.log(
  `ratio bridge webhook / bare webhook:       p50 ${ratio(viaWebhook, bareHook, 50)}x  p99 ${ratio(viaWebhook, bareHook, 99)}x`,
);
for (const p of [50, 99]) {
  const added = pct(viaBridge, p) - pct(hostEcho, p) - pct(bareA2A, p);
  console.log(
    `bridge's own share at p${p} (bridge − host echo − bare A2A): ${added.toFixed(1)} ms; minus the durable writes: ${(added - pct(durable, p)).toFixed(1)} ms (goal ≤ 20 ms at p99)`,
  );
}
bridge.child.kill('SIGTERM');
await bridge.exit;
phone.abort();
hook.close();
await agents.close();
await service.close();
for (const d of dirs) rmSync(d, { recursive: true, force: true });
process.exit(0);
