// Webhook agents: a receiver in plain Node HTTP checks the signature, reads its tables, then replies;
// 5xx and timeouts are retried with back-off, a 2xx never is, other statuses end the turn with a line.
import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFor } from '../src/answer.js';
import { signWebhookBody } from '../src/webhook-signature.js';
import { runWebhookTurn, type WebhookTurnBody } from '../src/webhook-turn.js';
import { verifyWebhookSignature } from '../src/webhook-verify.js';
import {
  type BridgeProcess,
  bridgeCli,
  bridgeDir,
  type LiveService,
  signUpPerson,
  startBridge,
  startService,
  waitFor,
} from './live.js';

interface Delivery {
  headers: IncomingMessage['headers'];
  raw: string;
  body: WebhookTurnBody;
}

/** A receiver that records every POST and answers with `answer(delivery, attempt)`. */
async function receiver(
  answer: (d: Delivery, attempt: number) => { status: number; json?: unknown; hangMs?: number },
): Promise<{ url: string; seen: Delivery[]; server: Server }> {
  const seen: Delivery[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => {
      raw += String(c);
    });
    req.on('end', () => {
      const d: Delivery = { headers: req.headers, raw, body: JSON.parse(raw) as WebhookTurnBody };
      seen.push(d);
      const attempt = seen.filter((s) => s.body.delivery === d.body.delivery).length;
      const a = answer(d, attempt);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status, { 'content-type': 'application/json' });
        res.end(a.json === undefined ? '' : JSON.stringify(a.json));
      };
      if (a.hangMs) setTimeout(send, a.hangMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen, server };
}

const servers: Server[] = [];
const dirs: string[] = [];
let service: LiveService;
let bridge: BridgeProcess | undefined;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  bridge?.child.kill('SIGKILL');
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await service.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('webhook agents on the live service', () => {
  it('signed POSTs; a read then a reply; 503 retried; nothing retried after 200', {
    timeout: 60_000,
  }, async () => {
    let secret = '';
    const hook = await receiver((d, attempt) => {
      const request = { method: 'POST', url: hook.url, delivery: String(d.headers['svc-delivery']) };
      if (!verifyWebhookSignature(secret, d.raw, d.headers['svc-signature'] as string, request))
        return { status: 401 };
      const typed = d.body.messages.map((m) => m.text).join(' ');
      if (typed === 'note hello') {
        if (attempt === 1) return { status: 503, json: { error: 'warming up' } };
        return {
          status: 200,
          json: { tables: 'table create notes Body:text\nput notes n1 Body=hello\nquery notes' },
        };
      }
      const rows = (d.body.tables?.results as { rows: unknown[][] }[] | undefined)?.[0]?.rows ?? [];
      if (d.body.tables)
        return {
          status: 200,
          json: { reply: `Noted. Your notes: ${rows.map((r) => r.join('/')).join(', ')}` },
        };
      return { status: 200, json: { reply: `echo: ${typed}` } };
    });
    servers.push(hook.server);
    const person = await signUpPerson(service.base, 'hook@example.com');
    const dir = bridgeDir();
    dirs.push(dir);
    const { agentId, code } = await person.addAgent('Hook');
    const paired = await bridgeCli(
      ['pair', code, '--webhook', hook.url, '--name', 'Notes hook', '--url', service.base],
      dir,
    );
    expect(paired.code, paired.stderr).toBe(0);
    secret = /^ {2}(whsec_\S+)$/m.exec(paired.stdout)![1]!;
    // Shown once: list never prints it.
    expect((await bridgeCli(['list'], dir)).stdout).not.toContain(secret);
    expect((await person.agent(agentId)).card).toEqual({ name: 'Notes hook', skills: [] });

    bridge = startBridge(['run'], dir);
    const row = await person.say(agentId, 'note hello');
    const answer = await person.answerTo(agentId, row);
    expect(answer.body).toBe('Noted. Your notes: hello');

    // One delivery for the person's words: 503, then 200 (a read); then one POST with the rows; no repeats.
    const first = hook.seen.filter((d) => d.body.messages.some((m) => m.text === 'note hello'));
    expect(first).toHaveLength(2);
    expect(first[0]!.body.delivery).toBe(first[1]!.body.delivery);
    expect(first[0]!.headers['svc-delivery']).toBe(first[0]!.body.delivery);
    const followUps = hook.seen.filter((d) => d.body.tables);
    expect(followUps).toHaveLength(1);
    expect(followUps[0]!.body).toMatchObject({
      type: 'turn',
      version: 1,
      agent: { id: agentId, name: 'Notes hook' },
      messages: [],
      tables: {
        results: [{ table: 'notes', count: 1 }],
        failed: [],
        held: [{ name: 'notes', rows: 1 }],
        tables: expect.stringContaining('[svc] tables notes(1 rows'),
      },
    });
    expect(hook.seen).toHaveLength(3);

    const again = await person.say(agentId, 'plain');
    expect((await person.answerTo(agentId, again)).body).toBe('echo: plain');
    expect(hook.seen).toHaveLength(4);
    expect((await person.answers(agentId)).map((a) => a.body)).toEqual([
      'Noted. Your notes: hello',
      'echo: plain',
    ]);
  });
});

describe('a webhook answer with a deadline (ADR 0260)', () => {
  it('the screen carries it through the bridge, and the live service lands the default when nobody answers', {
    timeout: 60_000,
  }, async () => {
    const hook = await receiver((d) =>
      d.body.messages.length > 0
        ? {
            status: 200,
            json: {
              reply: 'Pick one:\n```svc\nchoose@lunch "Lunch?" Soup|Salad\n```',
              deadline: { in: '5s', default: { lunch: 'Soup' } },
            },
          }
        : { status: 200, json: { reply: 'noted' } },
    );
    servers.push(hook.server);
    const person = await signUpPerson(service.base, 'deadline-hook@example.com');
    const dir = bridgeDir();
    dirs.push(dir);
    const { agentId, code } = await person.addAgent('Lunch hook');
    const paired = await bridgeCli(['pair', code, '--webhook', hook.url, '--url', service.base], dir);
    expect(paired.code, paired.stderr).toBe(0);
    const running = startBridge(['run'], dir);
    try {
      const row = await person.say(agentId, 'lunch?');
      const screen = await person.answerTo(agentId, row);
      const meta = screen.meta as { deadline?: { due: string; defaults: unknown[] } };
      expect(screen.screen?.lines).toBe('choose@lunch "Lunch?" Soup|Salad');
      expect(meta.deadline?.defaults).toEqual([{ id: 'lunch', value: 'Soup' }]);
      // Nobody taps: the server's own sweeper decides at the deadline (real time here, 5 s).
      const decided = await waitFor('the default', async () =>
        (await person.thread(agentId)).find((m) => m.kind === 'tap' && m.sender === 'person'),
      );
      expect(decided.meta).toMatchObject({
        decided_by: 'default',
        step: 'deadline',
        value: 'Soup',
        via: 'default',
      });
      const due = Date.parse(meta.deadline!.due);
      expect(Date.now()).toBeGreaterThanOrEqual(due);
    } finally {
      running.child.kill('SIGKILL');
    }
  });
});

describe('runWebhookTurn (a real receiver, short timeouts)', () => {
  const body = (delivery: string): WebhookTurnBody => ({
    type: 'turn',
    version: 1,
    delivery,
    agent: { id: 'agt_1', name: 'Hook' },
    messages: [{ id: 'msg_1', text: 'hi' }],
    taps: [],
  });
  const policy = { timeoutMs: 300, attempts: 3, retryMs: 20 };

  it('a timeout is retried; the answer after it ends the turn', async () => {
    const hook = await receiver((_d, attempt) =>
      attempt === 1
        ? { status: 200, json: { reply: 'late' }, hangMs: 1000 }
        : { status: 200, json: { reply: 'on time' } },
    );
    servers.push(hook.server);
    const view = await runWebhookTurn({ url: hook.url, secret: 's' }, body('d1'), policy);
    expect(answerFor(view!, 'Hook').text).toBe('on time');
    expect(hook.seen).toHaveLength(2);
  });

  it('a 4xx is not retried and reads as a line with the reason; a 500 every time gives up after the attempts', async () => {
    const hook = await receiver((d) =>
      d.body.delivery === 'd4'
        ? { status: 403, json: { error: 'no' } }
        : { status: 500, json: { error: 'down' } },
    );
    servers.push(hook.server);
    const refused = await runWebhookTurn({ url: hook.url, secret: 's' }, body('d4'), policy);
    expect(answerFor(refused!, 'Hook')).toMatchObject({
      kind: 'status',
      text: expect.stringMatching(
        /^Hook could not take the message\.\nThe webhook answered 403 \(a key missing\? pair with --header\)/,
      ),
    });
    expect(hook.seen.filter((d) => d.body.delivery === 'd4')).toHaveLength(1);
    const down = await runWebhookTurn({ url: hook.url, secret: 's' }, body('d5'), policy);
    expect(answerFor(down!, 'Hook').text).toMatch(/No answer after 3 tries: the webhook answered 500/);
    expect(hook.seen.filter((d) => d.body.delivery === 'd5')).toHaveLength(3);
  });

  it('the signature covers the time, method, URL, delivery id and body; every v1 is checked (issue 46)', () => {
    const now = 1_700_000_000;
    const raw = JSON.stringify(body('d6'));
    const request = { method: 'POST', url: 'https://hooks.example.com/svc', delivery: 'd6' };
    const mac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');
    const text = `${now}\nPOST\nhttps://hooks.example.com/svc\nd6\n${raw}`;
    const header = signWebhookBody('whsec_k', raw, now, request);
    expect(header).toBe(`t=${now},v1=${mac('whsec_k', text)}`);
    expect(verifyWebhookSignature('whsec_k', raw, header, request, now)).toBe(true);
    expect(verifyWebhookSignature('whsec_k', `${raw} `, header, request, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_other', raw, header, request, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_k', raw, header, request, now + 301)).toBe(false);
    expect(verifyWebhookSignature('whsec_k', raw, undefined, request, now)).toBe(false);
    // The same signature replayed to another URL, with another method or another delivery id fails.
    expect(
      verifyWebhookSignature('whsec_k', raw, header, { ...request, url: 'https://other.example/svc' }, now),
    ).toBe(false);
    expect(verifyWebhookSignature('whsec_k', raw, header, { ...request, method: 'PUT' }, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_k', raw, header, { ...request, delivery: 'd7' }, now)).toBe(false);
    // The old form (time and body only) no longer verifies.
    expect(
      verifyWebhookSignature('whsec_k', raw, `t=${now},v1=${mac('whsec_k', `${now}.${raw}`)}`, request, now),
    ).toBe(false);
    // A secret being replaced: the good v1 may come second.
    const rotating = `t=${now},v1=${mac('whsec_old', text)},v1=${mac('whsec_k', text)}`;
    expect(verifyWebhookSignature('whsec_k', raw, rotating, request, now)).toBe(true);
    expect(
      verifyWebhookSignature(
        'whsec_k',
        raw,
        `t=${now},t=${now + 1},v1=${mac('whsec_k', text)}`,
        request,
        now,
      ),
    ).toBe(false);
  });
});
