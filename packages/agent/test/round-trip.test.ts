// Every method against the real server: the screen lands in the person's thread, the person answers over
// their API, and the method resolves with the typed answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthError,
  connect,
  createMcpTransport,
  InvalidArgumentError,
  ServiceRefusedError,
  type Svc,
} from '../src/index.js';
import { newPerson, oauthSignIn, PNG, pairedAgent, type Service, startService } from './service.js';

let service: Service;
let svc: Svc;
let token: string;
let person: Awaited<ReturnType<typeof pairedAgent>>['person'];
const seen = new Set<string>();

beforeAll(async () => {
  service = await startService();
  const paired = await pairedAgent(service.base);
  person = paired.person;
  token = paired.token;
  svc = connect({ url: service.mcpUrl, token });
});
afterAll(async () => {
  await svc?.close();
  await service?.stop();
});

describe('asking methods', () => {
  it('choose resolves with the option the person tapped', async () => {
    const lunch = svc.choose('Lunch today?', ['Soup', 'Salad "green"']);
    const screen = await person.nextScreen(seen);
    expect(screen.lines).toBe('choose@ask "Lunch today?" Soup|"Salad \\"green\\""');
    await person.tap(screen.id, { id: 'ask', value: 'Salad "green"' });
    expect(await lunch).toBe('Salad "green"');
  });

  it('choose with multi resolves with the list', async () => {
    const picks = svc.choose('Toppings?', ['Cheese', 'Olives', 'Basil'], { multi: true });
    const screen = await person.nextScreen(seen);
    await person.tap(screen.id, { id: 'ask', value: ['Cheese', 'Basil'] });
    expect(await picks).toEqual(['Cheese', 'Basil']);
  });

  it('confirm resolves true for the first button and false for the second', async () => {
    const yes = svc.confirm('Deploy?', { yes: 'Ship it', no: 'Wait' });
    const s1 = await person.nextScreen(seen);
    expect(s1.lines).toBe('confirm@ask "Deploy?" "Ship it"|Wait');
    await person.tap(s1.id, { id: 'ask', value: true });
    expect(await yes).toBe(true);
    const no = svc.confirm('Again?');
    await person.tap((await person.nextScreen(seen)).id, { id: 'ask', value: false });
    expect(await no).toBe(false);
  });

  it('ask resolves with text, or a number for type number', async () => {
    const name = svc.ask('Your name?', { placeholder: 'Sam' });
    await person.tap((await person.nextScreen(seen)).id, { id: 'ask', value: 'Ana' });
    expect(await name).toBe('Ana');
    const kg = svc.ask('Weight?', { type: 'number' });
    const screen = await person.nextScreen(seen);
    expect(screen.lines).toBe('ask@ask "Weight?" type=number');
    await person.tap(screen.id, { id: 'ask', value: 71.5 });
    expect(await kg).toBe(71.5);
  });

  it('checkin resolves with the step', async () => {
    const mood = svc.checkin('mood', 'How are you?');
    await person.tap((await person.nextScreen(seen)).id, { id: 'ask', value: 4 });
    expect(await mood).toBe(4);
  });

  it('form resolves with the typed fields the person filled', async () => {
    const visit = svc.form('Visit', { name: 'text', age: 'number', ok: 'bool' });
    const screen = await person.nextScreen(seen);
    expect(screen.lines).toBe('form@ask "Visit" name:text age:number ok:bool');
    await person.tap(screen.id, { id: 'ask', value: { name: 'Ana', age: 31 } });
    expect(await visit).toEqual({ name: 'Ana', age: 31 });
  });

  it('photo resolves with signed links that serve the picture', async () => {
    const snap = svc.photo('Your plate', { max: 2 });
    const screen = await person.nextScreen(seen);
    const photoId = await person.uploadPhoto(PNG);
    await person.tap(screen.id, { id: 'ask', value: 1 }, [photoId]);
    const answer = await snap;
    expect(answer.count).toBe(1);
    expect(answer.photos).toHaveLength(1);
    const got = await fetch(answer.photos[0] as string);
    expect(got.status).toBe(200);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);
  });
});

describe('other methods', () => {
  it('say writes a chat line; threads lists the agent with its unread count', async () => {
    const { message_id } = await svc.say('Hello from code');
    expect(message_id).toMatch(/^msg_/);
    const bodies = (await person.messages()).map((m) => m.body);
    expect(bodies).toContain('Hello from code');
    await person.say('typed by the person');
    const [thread] = await svc.threads();
    expect(thread).toMatchObject({ handle: 'helper', is_default: true, unread: 1 });
    // Typed text is the next answer nobody waits for.
    expect(await svc.next()).toMatchObject({ kind: 'text', text: 'typed by the person' });
  });

  it('show puts any screen and answer() waits for a tap on one of its components', async () => {
    const shown = await svc.show('text Two questions\nchoose@a "First?" X|Y\nconfirm@b "Second?"');
    expect(shown.tap_ids).toEqual(['a', 'b']);
    const b = shown.answer('b');
    const a = shown.answer();
    await person.tap(shown.screen_id, { id: 'b', value: true });
    await person.tap(shown.screen_id, { id: 'a', value: 'Y' });
    expect((await a).event).toMatchObject({ id: 'a', value: 'Y' });
    expect((await b).event).toMatchObject({ id: 'b', value: true });
  });

  it('tables: create, put typed rows, query them back, refusals are typed', async () => {
    const weight = svc.tables.table('weight', { Day: 'date', Kg: 'number', Note: 'text' });
    await weight.create();
    expect(
      await weight.put([
        { key: 'd1', Day: '2026-11-27', Kg: 72.1, Note: 'before' },
        { key: 'd2', Day: '2026-11-28', Kg: 71.5, Note: null },
      ]),
    ).toEqual({ written: 2 });
    const rows = await weight.query({ sort: ['-Day'], limit: 5 });
    expect(rows.map((r) => [r.key, r.Day, r.Kg])).toEqual([
      ['d2', '2026-11-28', 71.5],
      ['d1', '2026-11-27', 72.1],
    ]);
    expect(await weight.query({ where: { Note: 'before' } })).toHaveLength(1);
    const wrong = svc.tables.table('weight', { Kg: 'text' });
    await expect(wrong.put([{ key: 'd3', Kg: 'heavy' }])).rejects.toBeInstanceOf(ServiceRefusedError);
  });
});

describe('errors', () => {
  it('refuses bad arguments before sending, and the service refusals carry its codes', async () => {
    await expect(svc.choose('One option?', ['Only'])).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(svc.show('nonsense line here')).rejects.toMatchObject({ code: 'invalid_lines' });
    // Arguments the tool's schema refuses come back as a refusal with the service's code, not a lost connection.
    const raw = createMcpTransport({ url: service.mcpUrl, token });
    await expect(raw.call('svc_answers', { wait: 99 })).rejects.toMatchObject({ code: 'invalid_input' });
    await raw.close();
    const stranger = connect({ url: service.mcpUrl, token: 'svc_ct_not-a-real-token' });
    await expect(stranger.threads()).rejects.toBeInstanceOf(AuthError);
    await expect(stranger.threads()).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
    await stranger.close();
  });
});

describe('OAuth', () => {
  it('asks with an OAuth access token the caller holds, handed over by a function per request', async () => {
    const made = await newPerson(service.base, 'Planner');
    const { accessToken } = await oauthSignIn(service.base, made.personToken, made.agentId);
    expect(accessToken).toMatch(/^svc_at_/);
    let asked = 0;
    const app = connect({
      url: service.mcpUrl,
      token: () => {
        asked++;
        return accessToken;
      },
    });
    const pick = app.choose('Which plan?', ['A', 'B']);
    const screen = await made.person.nextScreen(new Set());
    await made.person.tap(screen.id, { id: 'ask', value: 'B' });
    expect(await pick).toBe('B');
    expect(asked).toBeGreaterThan(1);
    await app.close();
  });
});
