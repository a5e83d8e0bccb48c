// The same methods through the second transport, the host API: a connector paired as a host asks, the person
// answers over their API; a lost reply lands once; a restart mid-wait resumes the stream where it stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, connect, type Svc } from '../src/index.js';
import { CONNECT, newPerson, type Service, startService } from './service.js';

let service: Service;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

async function hostAgent(fetchImpl?: typeof fetch) {
  const made = await newPerson(service.base, 'Kitchen');
  const r = await fetch(`${service.base}${CONNECT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'pair',
      code: made.code,
      remote_ref: 'kitchen',
      kind: 'hostfw',
      host_name: 'box',
    }),
  });
  const token = ((await r.json()) as { connector_token: string }).connector_token;
  const svc: Svc = connect({
    url: `${service.base}${CONNECT}`,
    token,
    via: 'host-api',
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  return { ...made, svc, seen: new Set<string>() };
}

describe('through the host API', () => {
  it('choose, form, say, threads and tables round trip', async () => {
    const { svc, person, seen } = await hostAgent();
    const lunch = svc.choose('Lunch?', ['Soup', 'Salad']);
    const screen = await person.nextScreen(seen);
    expect(screen.lines).toBe('choose@ask "Lunch?" Soup|Salad');
    await person.tap(screen.id, { id: 'ask', value: 'Soup' });
    expect(await lunch).toBe('Soup');
    const visit = svc.form('Visit', { name: 'text', age: 'number' });
    await person.tap((await person.nextScreen(seen)).id, { id: 'ask', value: { age: 30 } });
    expect(await visit).toEqual({ age: 30 });
    await svc.say('Noted.');
    expect((await person.messages()).map((m) => m.body)).toContain('Noted.');
    expect((await svc.threads())[0]).toMatchObject({ handle: 'kitchen', is_default: true });
    const stock = svc.tables.table('stock', { Item: 'text', Count: 'number' });
    await stock.create();
    await stock.put([{ key: 'eggs', Item: 'Eggs', Count: 12 }]);
    expect(await stock.query()).toEqual([{ key: 'eggs', Item: 'Eggs', Count: 12 }]);
    await person.say('typed');
    expect(await svc.next()).toMatchObject({ kind: 'text', text: 'typed' });
    await svc.close();
  });

  it('a reply whose answer was lost is sent again and lands once', async () => {
    let lost = 0;
    const losing: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith('/messages/reply') && lost === 0) {
        lost++;
        throw new TypeError('the connection dropped before the answer arrived');
      }
      return res;
    };
    const { svc, person } = await hostAgent(losing);
    const shown = await svc.show('confirm "Once?"');
    expect(lost).toBe(1);
    const screens = await person.screens();
    expect(screens.map((s) => s.id)).toEqual([shown.screen_id]);
    await svc.close();
  });

  it('a server restart during a wait resumes the stream and loses no answer', async () => {
    let streams = 0;
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).includes('/messages?after=')) streams++;
      return res;
    };
    const { svc, person, seen } = await hostAgent(counting);
    const kg = svc.ask('Weight?', { type: 'number' });
    const screen = await person.nextScreen(seen);
    // The stream is open (its answer's head arrived) before the server goes away under it.
    await expect.poll(() => streams).toBe(1);
    await service.restart();
    await person.tap(screen.id, { id: 'ask', value: 70.5 });
    expect(await kg).toBe(70.5);
    await svc.close();
  });

  it('an abort rejects and withdraws', async () => {
    const { svc, person, seen } = await hostAgent();
    const stop = new AbortController();
    const q = svc.confirm('Still there?', { signal: stop.signal });
    const screen = await person.nextScreen(seen);
    stop.abort();
    await expect(q).rejects.toBeInstanceOf(AbortedError);
    // Withdrawn through the host API's /messages/withdraw (ADR 0279): no chat line, and a tap is refused.
    const rows = await person.messages();
    expect(rows.map((m) => m.body)).not.toContain('Never mind: Still there?');
    expect(rows.filter((m) => m.meta.decided_by === 'agent')).toHaveLength(1);
    await expect(person.tap(screen.id, { id: 'ask', value: true })).rejects.toThrow(/tap: 409/);
    await svc.close();
  });
});
