// A deadline's `offer` step through the SDK (issue 40, ADR 0280): an agent shared with a holder asks its owner
// with `escalate: [{do: "offer", to: [holder]}]`; at the step the holder's thread shows the same ask, the
// holder answers, and the agent's wait resolves with the holder's answer. Real server, host API, person API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/index.js';
import { APP, CONNECT, newPerson, personSide, type Service, startService } from './service.js';

let service: Service;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

const post = async (path: string, body: unknown, token?: string) => {
  const r = await fetch(`${service.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await r.json()) as Record<string, unknown>;
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
};

/** An owner's agent paired as a host that reports a client-safe sandbox, shared with a second person. */
async function sharedAgent() {
  const owner = await newPerson(service.base, 'Kitchen');
  const paired = await post(CONNECT, {
    action: 'pair',
    code: owner.code,
    remote_ref: 'kitchen',
    kind: 'hostfw',
    host_name: 'box',
  });
  const token = paired.connector_token as string;
  // A sandbox with no terminal, files, reach or memory: the agent is client-safe, so it can be shared.
  const sandbox = {
    kitchen: {
      terminal: 'off',
      files: 'off',
      reach: [],
      memory: 'off',
      runner: 'api',
      profile: 'own',
      extra_keys: 0,
    },
  };
  const beat = await fetch(`${service.base}${CONNECT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ action: 'heartbeat', sandbox }),
  });
  expect(beat.status).toBe(200);
  const invite = await post(`${APP}/shares/invites`, { agent_id: owner.agentId }, owner.personToken);
  const holder = await newPerson(service.base, 'Own');
  const inviteToken = /#\/invite\/(.+)$/.exec(String(invite.link))![1]!;
  const claimed = await post(`${APP}/invites/${inviteToken}/claim`, {}, holder.personToken);
  expect(claimed.granted).toEqual([expect.objectContaining({ agent_id: owner.agentId })]);
  const given = await fetch(`${service.base}${APP}/shares/given`, {
    headers: { authorization: `Bearer ${owner.personToken}` },
  });
  const grants = ((await given.json()) as { grants: { user: { id: string; email: string } }[] }).grants;
  const holderId = grants.find((g) => g.user.email === holder.email)!.user.id;
  return { owner, token, holderId, holder: personSide(service.base, holder.personToken, owner.agentId) };
}

describe('a deadline that offers the ask to a holder', () => {
  it("the holder's answer to the offered screen is the answer the agent's wait resolves with", async () => {
    const { owner, token, holderId, holder } = await sharedAgent();
    const svc = connect({ url: `${service.base}${CONNECT}`, token, via: 'host-api', pollSeconds: 1 });
    const lunch = svc.choose('Lunch?', ['Soup', 'Salad'], {
      // Offered to the holder after a tenth of a minute; nobody answering by then would expire it.
      deadline: { in: 60, escalate: [{ at: '10%', do: 'offer', to: [holderId] }] },
    });
    const [asked] = await holderScreens(owner.person, 1);
    const [offered] = await holderScreens(holder, 1);
    expect(offered!.lines).toBe(asked!.lines);
    await holder.tap(offered!.id, { id: 'ask', value: 'Salad' });
    expect(await lunch).toBe('Salad');
    // The owner's thread keeps the holder's answer, marked as the escalation's.
    const rows = await owner.person.messages();
    const answer = rows.find((m) => m.kind === 'tap')!;
    expect(answer.meta).toMatchObject({ decided_by: 'escalation', step: 'offer', by: holderId });
    await svc.close();
  }, 30_000);
});

/** Waits (polling the person's API) until the thread shows `n` screens. */
async function holderScreens(side: ReturnType<typeof personSide>, n: number) {
  const until = Date.now() + 20_000;
  for (;;) {
    const screens = await side.screens();
    if (screens.length >= n) return screens;
    if (Date.now() > until) throw new Error(`no ${n} screens within 20 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
