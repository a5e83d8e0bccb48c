import type { ThreadEvent } from '@screen-service/registry/kernel';
import { guide } from '@screen-service/screen-lines';
import { afterEach, describe, expect, it } from 'vitest';
import { createRig, type Rig, settle } from '../test/setup.js';

let rig: Rig;
afterEach(async () => {
  await rig.close();
});

const lastUser = (rig: Rig, n = rig.model.requests.length - 1) => {
  const msgs = rig.model.requests[n]!.messages;
  return msgs[msgs.length - 1]!;
};

describe('native runtime', () => {
  it('answers on the turn machinery: rows delivered then handled, meta.turn, the working row', async () => {
    rig = await createRig();
    const agentId = await rig.blank('You answer with one screen.');
    const events: ThreadEvent[] = [];
    rig.core.notifier.subscribe(rig.user.id, (e) => {
      if (e.type === 'working') events.push(e);
    });
    rig.model.script('Pick one.\n```svc\nchoose@lunch "Lunch?" Soup|Salad\n```');
    const sent = await rig.say(agentId, 'what for lunch?');
    const rows = await rig.rows(agentId);
    const person = rows.find((r) => r.id === sent)!;
    expect(person.deliveredAt).not.toBeNull();
    expect(person.handledAt).not.toBeNull();
    const answer = rows[rows.length - 1]!;
    expect(answer.sender).toBe('agent');
    expect(answer.kind).toBe('screen');
    expect(answer.body).toBe('choose@lunch "Lunch?" Soup|Salad');
    expect(answer.meta).toMatchObject({ turn: [sent], text: 'Pick one.' });
    expect(events.map((e) => (e.type === 'working' ? e.until !== null : null))).toEqual([true, false]);
    expect((await rig.core.store.threads.getState({ agentId, userId: rig.user.id })).workingUntil).toBeNull();
  });

  it('sends the instructions and the channel guide as the system prompt, over a stream', async () => {
    rig = await createRig();
    const agentId = await rig.blank('Always be brief.');
    await rig.say(agentId, 'hello');
    const req = rig.model.requests[0]!;
    expect(req.stream).toBe(true);
    expect(req.model).toBe('test-model');
    expect(req.authorization).toBe('Bearer sk-test');
    expect(req.messages[0]!.role).toBe('system');
    expect(req.messages[0]!.content).toContain('Always be brief.');
    expect(req.messages[0]!.content).toContain(guide().text);
    expect(lastUser(rig)).toEqual({ role: 'user', content: 'hello' });
  });

  it('takes two messages sent during a turn as one next turn', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    let release!: () => void;
    rig.model.script({ text: 'First answer.', after: new Promise<void>((r) => (release = r)) }, 'Both seen.');
    const first = await rig.core.threads.say(rig.user.id, agentId, { text: 'one' });
    while (rig.model.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const a = await rig.core.threads.say(rig.user.id, agentId, { text: 'two' });
    const b = await rig.core.threads.say(rig.user.id, agentId, { text: 'three' });
    release();
    await settle(rig.runtime);
    expect(rig.model.requests).toHaveLength(2);
    expect(lastUser(rig, 1).content).toBe('two\nthree');
    const answers = (await rig.rows(agentId)).filter((r) => r.sender === 'agent');
    expect(answers.map((r) => r.meta.turn)).toEqual([[first.id], [a.id, b.id]]);
  });

  it('gives taps to the model as tap lines', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    rig.model.script('```svc\nchoose@lunch "Lunch?" Soup|Salad\n```', 'Soup it is.');
    await rig.say(agentId, 'lunch?');
    const screen = (await rig.rows(agentId)).find((r) => r.kind === 'screen')!;
    await rig.core.threads.tap(rig.user.id, agentId, {
      screen_id: screen.screenId,
      event: { id: 'lunch', value: 'Soup' },
    });
    await settle(rig.runtime);
    expect(lastUser(rig).content).toMatch(/^\[svc\] lunch choose /);
    expect(lastUser(rig).content).toContain('Soup');
    const rows = await rig.rows(agentId);
    expect(rows[rows.length - 1]!.body).toBe('Soup it is.');
  });

  it('removes table lines from the reply, writes the rows and draws queries with the real rows', async () => {
    rig = await createRig();
    const { id: agentId } = await rig.native.add(rig.user.id, { starter: 'habit-coach' });
    rig.model.script('Logged it.\n```svc\nput runs Day=2026-11-20 Km=5.5\nquery runs cols=Day|Km\n```');
    await rig.say(agentId, 'ran 5.5 km');
    const saved = (await rig.rows(agentId)).at(-1)!;
    expect(saved.body).toContain('Logged it.');
    expect(saved.body).not.toContain('put runs');
    expect(saved.body).not.toContain('query runs');
    expect(saved.body).toContain('5.5');
    expect(saved.body).toContain('2026-11-20');
    const [runs] = await rig.core.tables.list(rig.user.id);
    expect(runs).toMatchObject({ name: 'runs', rows: 1 });
  });

  it('feeds a reply of only reads back to the model, at most twice in a row', async () => {
    rig = await createRig();
    const { id: agentId } = await rig.native.add(rig.user.id, { starter: 'todo-keeper' });
    rig.model.script(
      'Added.\n```svc\nput todos milk Task="Buy milk"\n```',
      '```svc\nquery todos\n```',
      '```svc\nquery todos\n```',
      '```svc\nquery todos\n```',
    );
    await rig.say(agentId, 'add milk');
    await rig.say(agentId, 'what is on my list?');
    expect(rig.model.requests).toHaveLength(4);
    expect(lastUser(rig, 2).content).toMatch(/^\[svc\] Your tables: todos \(1 of 1 rows\)/);
    expect(lastUser(rig, 3).content).toContain('Buy milk');
    const saved = (await rig.rows(agentId)).at(-1)!;
    expect(saved.sender).toBe('agent');
    expect(saved.body).toContain('Buy milk');
    expect(saved.body).not.toContain('[svc]');
  });

  it('shows the text of a reply with bad lines and tells the model once what failed', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    rig.model.script('Here is your screen.\n```svc\nchoose "Which?"\n```', 'Sorry.', 'Fine.');
    await rig.say(agentId, 'show me');
    const saved = (await rig.rows(agentId)).at(-1)!;
    expect(saved.kind).toBe('text');
    expect(saved.body).toBe('Here is your screen.');
    await rig.say(agentId, 'again');
    expect(lastUser(rig).content).toMatch(/^\[svc\] Your last screen was not shown: line 1: /);
    await rig.say(agentId, 'and again');
    expect(lastUser(rig).content).toBe('and again');
  });

  it('tells the model on its next turn about a refused write', async () => {
    rig = await createRig();
    const { id: agentId } = await rig.native.add(rig.user.id, { starter: 'habit-coach' });
    rig.model.script('Saved.\n```svc\nput runs Km=far\n```', 'I will use a number.');
    await rig.say(agentId, 'ran far');
    await rig.say(agentId, 'ok?');
    expect(lastUser(rig).content).toMatch(/^\[svc\] refused: \{"op":"row","table":"runs"/);
    expect((await rig.core.tables.list(rig.user.id))[0]!.rows).toBe(0);
  });

  it('holds turns past the per-minute limit and runs them when the bucket refills', async () => {
    rig = await createRig({ limits: { turnsPerMinute: 1 } });
    const agentId = await rig.blank();
    await rig.say(agentId, 'one');
    const second = await rig.say(agentId, 'two');
    expect(rig.model.requests).toHaveLength(1);
    expect(rig.timers).toHaveLength(1);
    expect(rig.timers[0]!.ms).toBe(60_000);
    const row = (await rig.rows(agentId)).find((r) => r.id === second)!;
    expect(row.handledAt).toBeNull();
    rig.core.advance(60_000);
    rig.timers.shift()!.run();
    await settle(rig.runtime);
    expect(rig.model.requests).toHaveLength(2);
    expect((await rig.rows(agentId)).at(-1)!.meta.turn).toEqual([second]);
  });

  it('stops answering past the tokens a day and says so in the thread', async () => {
    rig = await createRig({ limits: { tokensPerDay: 100 } });
    const agentId = await rig.blank();
    rig.model.script({ text: 'Big answer.', tokens: 150 });
    await rig.say(agentId, 'one');
    const second = await rig.say(agentId, 'two');
    expect(rig.model.requests).toHaveLength(1);
    const last = (await rig.rows(agentId)).at(-1)!;
    expect(last.body).toMatch(/used its 100 model tokens for today/);
    expect(last.meta.turn).toEqual([second]);
    rig.core.advance(24 * 60 * 60 * 1000);
    await rig.say(agentId, 'next day');
    expect(rig.model.requests).toHaveLength(2);
  });

  it('says so when the model is down, keeps the message and answers when it is back', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    await rig.model.stop();
    const sent = await rig.say(agentId, 'are you there?');
    let rows = await rig.rows(agentId);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.body).toMatch(/^⚠ Tester could not answer: The model could not be reached/);
    expect(rows[1]!.body).toContain('Your message is kept');
    expect(rows[0]!.handledAt).toBeNull();
    expect((await rig.core.store.threads.getState({ agentId, userId: rig.user.id })).workingUntil).toBeNull();
    // A second failure in a row writes no second line.
    rig.timers.shift()!.run();
    await settle(rig.runtime);
    expect(await rig.rows(agentId)).toHaveLength(2);
    await rig.model.start();
    rig.model.script('Back now.');
    rig.timers.shift()!.run();
    await settle(rig.runtime);
    rows = await rig.rows(agentId);
    expect(rows.at(-1)).toMatchObject({ body: 'Back now.', meta: { turn: [sent] } });
    expect(rows[0]!.handledAt).not.toBeNull();
    // The outage line is the service's, not the agent's words: the model never sees it.
    expect(JSON.stringify(rig.model.requests.at(-1)!.messages)).not.toContain('could not answer');
  });

  it('runs on start the turns owed while it was stopped', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    rig.runtime.stop();
    const sent = await rig.say(agentId, 'while you were away');
    expect(rig.model.requests).toHaveLength(0);
    await rig.runtime.start();
    await settle(rig.runtime);
    expect((await rig.rows(agentId)).at(-1)!.meta.turn).toEqual([sent]);
  });
});

describe('native runtime, unexpected failures', () => {
  it('reports a failure outside the model call and tries the turn again later', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    const seen: unknown[] = [];
    const { createNativeRuntime } = await import('./runtime.js');
    const { createModelClient } = await import('./model-client.js');
    rig.runtime.stop();
    const broken = createNativeRuntime({
      core: {
        ...rig.core,
        hostTransport: { ...rig.core.hostTransport, turn: () => Promise.reject(new Error('disk full')) },
      },
      model: createModelClient({ url: rig.model.url, model: 'm' }),
      guide: '',
      schedule: (run, ms) => {
        rig.timers.push({ run, ms });
        return () => {};
      },
      onError: (err) => seen.push(err),
    });
    await broken.start();
    await rig.core.threads.say(rig.user.id, agentId, { text: 'hi' });
    await settle(broken);
    broken.stop();
    expect(seen).toEqual([new Error('disk full')]);
    expect(rig.timers.map((t) => t.ms)).toEqual([5_000]);
    expect(rig.model.requests).toHaveLength(0);
  });
});
