// A screen's deadline from a real A2A agent (ADR 0260): the agent adds the data part
// `{svc:"deadline", in, default}` to its answer; the bridge carries it, without `svc`, on the post of that
// answer, and the host link sends it to the service only with a screen. A deadline the service refuses
// (ADR 0305) costs the person nothing: the screen shows without it, and the agent reads why next turn.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createHostClient } from '@screen-service/connect-api/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HostServiceLink } from '../src/host-link.js';
import type { OutboundPost } from '../src/service-link.js';
import { StateFile } from '../src/state-file.js';
import { CHAT_TEXT, HELLO_TEXT, SCREEN_LINES, SCREEN_TEXT, startDeadlineAgent } from './deadline-agent.js';
import { type Harness, makeHarness } from './harness.js';
import {
  type BridgeProcess,
  bridgeCli,
  bridgeDir,
  call,
  type LiveService,
  signUpPerson,
  startBridge,
  startService,
  type ThreadRow,
  waitFor,
} from './live.js';

const DEADLINE = { in: '10m', default: { lunch: 'Soup' } };
const TEN_MINUTES = 10 * 60_000;

describe.each([
  ['streaming', true],
  ['polling', false],
] as const)('a real A2A agent answers with a deadline data part (%s)', (_mode, streaming) => {
  let agent: Awaited<ReturnType<typeof startDeadlineAgent>>;
  let h: Harness | undefined;
  beforeAll(async () => {
    agent = await startDeadlineAgent(streaming);
  });
  afterAll(() => agent.close());
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  /** Puts one row from the person and runs the bridge's turn to its end; the answer post it wrote. */
  async function answerTo(words: string): Promise<OutboundPost> {
    h = await makeHarness(agent.url);
    await h.link.addRow(h.agent.agentId, { id: 'r1', text: words });
    expect(await h.bridge.step(h.agent)).toBe('answered');
    expect(agent.seen.at(-1)).toBe(words);
    const posts = await h.link.posts(h.agent.agentId);
    expect(await h.link.pendingRows(h.agent.agentId)).toEqual([]);
    const answers = posts.filter((p) => p.kind !== 'working');
    expect(answers).toHaveLength(1);
    return answers[0]!;
  }

  it.each([
    ['message', 'an agent message'],
    ['artifact', "a completed task's artifact"],
    ['question', "an input-required task's status message"],
  ])('%s: the screen is posted with meta.deadline (%s), without the svc key', async (word) => {
    const post = await answerTo(word);
    // The screen's lines ride in the answer's text (the fenced svc block the host link splits off).
    expect(post.kind).toBe('answer');
    expect(post.text).toBe(SCREEN_TEXT);
    expect(post.meta.turn).toEqual(['r1']);
    expect(post.meta.deadline).toEqual(DEADLINE);
    expect(post.meta.deadline).not.toHaveProperty('svc');
    // A deadline is no table: the data part is not mistaken for `{svc:"tables"}`.
    expect(post.meta.tables).toBeUndefined();
    expect(post.meta.read).toBeUndefined();
    if (word === 'question') expect(post.meta.state).toBe('input-required');
  });

  it('chat: an answer without a screen keeps the deadline on the post', async () => {
    const post = await answerTo('chat');
    // The engine does not look for a screen: it carries the data part on the post as it does with one.
    expect(post).toMatchObject({
      kind: 'answer',
      text: CHAT_TEXT,
      meta: { turn: ['r1'], deadline: DEADLINE },
    });
  });

  it('pizza: the engine carries a deadline it cannot keep as written (the service checks it)', async () => {
    const post = await answerTo('pizza');
    expect(post).toMatchObject({
      kind: 'answer',
      text: SCREEN_TEXT,
      meta: { turn: ['r1'], deadline: { in: '10m', default: { lunch: 'Pizza' } } },
    });
  });
});

/** The deadline the service keeps on a screen row (ADR 0260). */
interface KeptDeadline {
  due: string;
  defaults: { id: string; value: string }[];
}
const deadlineOf = (row: ThreadRow) => (row.meta as { deadline?: KeptDeadline }).deadline;

describe('a real A2A agent with a deadline, through svc-a2a, on the live service', () => {
  let service: LiveService;
  let agent: Awaited<ReturnType<typeof startDeadlineAgent>>;
  const dirs: string[] = [];
  const running: BridgeProcess[] = [];
  beforeAll(async () => {
    [service, agent] = await Promise.all([startService(), startDeadlineAgent(true)]);
  }, 60_000);
  afterAll(async () => {
    for (const r of running) r.child.kill('SIGKILL');
    await Promise.all([service?.close(), agent?.close()]);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A person with one agent paired through `svc-a2a pair` to the deadline agent, and `svc-a2a run` serving it. */
  async function paired(email: string) {
    const person = await signUpPerson(service.base, email);
    const { agentId, code } = await person.addAgent('Lunch');
    const dir = bridgeDir();
    dirs.push(dir);
    const pair = await bridgeCli(['pair', code, '--card', agent.url, '--url', service.base], dir);
    expect(pair.code, pair.stderr).toBe(0);
    const bridge = startBridge(['run'], dir);
    running.push(bridge);
    /** What the agent received in this agent's conversation (the bridge's context id is the agent's id). */
    const received = () => agent.received.filter((r) => r.contextId === agentId);
    return { person, agentId, bridge, received };
  }

  it('message: the screen lands with the deadline the service keeps (the default, due in 10 minutes)', {
    timeout: 60_000,
  }, async () => {
    const { person, agentId, bridge, received } = await paired('deadline-a2a@example.com');
    try {
      const before = Date.now();
      const row = await person.say(agentId, 'message');
      const screen = await person.answerTo(agentId, row);
      const after = Date.now();
      expect(screen.kind).toBe('screen');
      expect(screen.screen?.lines).toBe(SCREEN_LINES);
      expect(screen.meta).toMatchObject({ text: 'Pick your lunch.', turn: [row] });
      const deadline = deadlineOf(screen);
      expect(deadline?.defaults).toEqual([{ id: 'lunch', value: 'Soup' }]);
      // Due 10 minutes after the service wrote the screen (between the person's words and the answer read).
      const due = Date.parse(deadline!.due);
      expect(due).toBeGreaterThanOrEqual(before + TEN_MINUTES - 1000);
      expect(due).toBeLessThanOrEqual(after + TEN_MINUTES + 1000);
      expect(received().map((r) => r.texts)).toEqual([['message']]);
    } finally {
      bridge.child.kill('SIGKILL');
    }
  });

  it('pizza: a default that is no option is refused; the screen shows open without it, and the agent reads why next turn', {
    timeout: 90_000,
  }, async () => {
    const { person, agentId, bridge, received } = await paired('deadline-a2a-pizza@example.com');
    try {
      const row = await person.say(agentId, 'pizza');
      const screen = await person.answerTo(agentId, row);
      // The screen as the agent wrote it, with no deadline: one agent row for the turn, not two.
      expect(screen.kind).toBe('screen');
      expect(screen.screen?.lines).toBe(SCREEN_LINES);
      expect(screen.meta).toMatchObject({ text: 'Pick your lunch.', turn: [row] });
      expect(screen.meta).not.toHaveProperty('deadline');
      expect((await person.answers(agentId)).filter((m) => m.meta.turn?.includes(row))).toHaveLength(1);
      expect(received().map((r) => r.data)).toEqual([[]]);

      // The person's next words reach the agent with the refusal as a note: the data part of the tables.
      const next = await person.say(agentId, 'hello');
      expect((await person.answerTo(agentId, next)).body).toBe(HELLO_TEXT);
      const told = received()[1]!;
      expect(told.texts).toEqual(['hello']);
      expect(told.data).toEqual([
        {
          svc: 'tables',
          failed: [
            {
              error: expect.stringMatching(/^Your deadline was not set: deadline\.default\.lunch/),
              code: 'invalid_deadline_default_lunch',
            },
          ],
        },
      ]);
      // Told once: the turn after carries no note.
      const later = await person.say(agentId, 'hello again');
      await person.answerTo(agentId, later);
      expect(received().map((r) => r.texts)).toEqual([['pizza'], ['hello'], ['hello again']]);
      expect(received()[2]!.data).toEqual([]);

      // The screen is open: the person's tap on it is taken, and it reaches the agent.
      const tapped = await call(service.base, 'POST', `/agents/${agentId}/taps`, {
        token: person.token,
        body: { screen_id: screen.screen!.id, event: { id: 'lunch', value: 'Salad' } },
      });
      expect(tapped.status, JSON.stringify(tapped.body)).toBe(201);
      const tap = await waitFor('the tap at the agent', async () =>
        received().find((r) => r.data.some((d) => d.id === 'lunch' && d.value === 'Salad')),
      );
      expect(tap.texts[0]).toMatch(/^\[svc\] lunch choose/);
    } finally {
      bridge.child.kill('SIGKILL');
    }
  });

  it('chat: an answer with a deadline part but no screen reaches the person as a chat row; the agent is told', {
    timeout: 60_000,
  }, async () => {
    const { person, agentId, bridge, received } = await paired('deadline-a2a-chat@example.com');
    try {
      const row = await person.say(agentId, 'chat');
      const chat = await person.answerTo(agentId, row);
      expect(chat.kind).toBe('text');
      expect(chat.body).toBe(CHAT_TEXT);
      expect(chat.screen).toBeNull();
      expect(chat.meta).not.toHaveProperty('deadline');
      expect(received().map((r) => r.texts)).toEqual([['chat']]);
      // A deadline goes with a screen: the next turn says it was not set.
      const next = await person.say(agentId, 'hello');
      await person.answerTo(agentId, next);
      expect(received()[1]).toEqual({
        contextId: agentId,
        texts: ['hello'],
        data: [
          {
            svc: 'tables',
            failed: [
              {
                error: 'Your deadline was not set: a deadline goes with a screen.',
                code: 'deadline_without_screen',
              },
            ],
          },
        ],
      });
    } finally {
      bridge.child.kill('SIGKILL');
    }
  });

  it('a resend after a lost answer (the outbox retries the post) replays the screen written without the deadline', {
    timeout: 60_000,
  }, async () => {
    // The link on its own, as the outbox drives it: the same post twice, as the outbox resends a post whose
    // answer it never saw. The second meets the key that holds the screen written without the deadline; the
    // agent has had no turn between them, so the first's note is still untold and both are kept.
    const person = await signUpPerson(service.base, 'deadline-a2a-retry@example.com');
    const { agentId, code } = await person.addAgent('Lunch');
    const client = createHostClient({ url: service.base });
    const paired = await client.pair({ code, remote_ref: 'retry', host_name: 'test' });
    const dir = bridgeDir();
    dirs.push(dir);
    const authed = createHostClient({ url: service.base, token: paired.connector_token! });
    const link = new HostServiceLink({ client: authed, state: new StateFile(join(dir, 'state.json')) });
    const post: OutboundPost = {
      id: 'p-retry',
      agentId,
      kind: 'answer',
      text: SCREEN_TEXT,
      meta: { turn: [], deadline: { in: '10m', default: { lunch: 'Pizza' } } },
    } as OutboundPost;
    await link.post(post);
    await link.post(post);
    const rows = await person.thread(agentId);
    const screens = rows.filter((m) => m.kind === 'screen');
    expect(screens).toHaveLength(1);
    expect(screens[0]!.meta).not.toHaveProperty('deadline');
    // The agent's next turn reads both refusals in order: the first's reason, then the resend's.
    const notes = (await new StateFile(join(dir, 'state.json')).agent(agentId)).notes;
    expect(notes).toEqual({
      failed: [
        {
          error: expect.stringMatching(/^Your deadline was not set: deadline\.default\.lunch: /),
          code: 'invalid_deadline_default_lunch',
        },
        {
          error: 'Your deadline was not set: the service refused it; the screen was shown without it.',
          code: 'conflict',
        },
      ],
    });
  });
});
