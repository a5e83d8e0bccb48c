// The pump's hand-out rules on a scripted transport (the server-backed tests cover the wire): each answer to
// one waiter, a repeated answer never twice, answers nobody waits for kept, a withdrawn screen's dropped.
import { describe, expect, it } from 'vitest';
import { AnswerPump } from './answer-pump.js';
import { AuthError } from './errors.js';
import type { ToolTransport } from './mcp-transport.js';
import type { Answer } from './types.js';

function tap(id: string, screen: string, tapId: string, value: unknown): Answer {
  return {
    id,
    kind: 'tap',
    text: '',
    screen_id: screen,
    event: { id: tapId, preset: 'choose', value },
    photos: [],
    at: '',
  };
}

/** Answers each svc_answers call with the next batch; after the last, holds the call until it is aborted. */
function scripted(batches: (Answer[] | Error | { answers: Answer[]; cursor: string })[]) {
  const calls: Record<string, unknown>[] = [];
  const transport: ToolTransport = {
    async call(_tool, args, signal) {
      calls.push(args);
      const next = batches.shift();
      if (next instanceof Error) throw next;
      if (Array.isArray(next)) return { answers: next };
      if (next) return next;
      return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    },
    async close() {},
  };
  return { transport, calls };
}

describe('AnswerPump', () => {
  it('hands each answer to the waiter it matches, once, even when the service repeats it', async () => {
    const a = tap('m1', 's1', 'ask', 'Soup');
    const b = tap('m2', 's2', 'ask', 'Rice');
    const { transport } = scripted([[a], [a, b]]);
    const pump = new AnswerPump({ transport, agent: undefined, retryMs: { first: 1, max: 1 } });
    const first = pump.wait((x) => x.screen_id === 's1', 's1');
    const second = pump.wait((x) => x.screen_id === 's2', 's2');
    expect(await first).toBe(a);
    expect(await second).toBe(b);
    const stop = new AbortController();
    const again = pump.wait((x) => x.id === 'm1', undefined, stop.signal);
    stop.abort('enough');
    await expect(again).rejects.toBe('enough');
  });

  it('keeps answers nobody waits for and drops those of withdrawn screens', async () => {
    const kept = tap('m1', 's9', 'ask', 'Tea');
    const dropped = tap('m2', 's8', 'ask', 'Coffee');
    const wanted = tap('m3', 's1', 'ask', 'Yes');
    const { transport, calls } = scripted([[kept, dropped, wanted]]);
    const pump = new AnswerPump({ transport, agent: 'coach' });
    pump.withdraw('s8');
    expect(await pump.wait((x) => x.screen_id === 's1', 's1')).toBe(wanted);
    expect(calls[0]).toEqual({ wait: 25, screen_id: 's1', agent: 'coach', cursor: '' });
    expect(await pump.wait(() => true, undefined)).toBe(kept);
    const stop = new AbortController();
    const none = pump.wait((x) => x.screen_id === 's8', 's8', stop.signal);
    stop.abort('nothing');
    await expect(none).rejects.toBe('nothing');
  });

  it('retries a lost connection and ends the waits on a refusal', async () => {
    const { transport } = scripted([new TypeError('fetch failed'), [tap('m1', 's1', 'ask', 1)]]);
    const pump = new AnswerPump({ transport, agent: undefined, retryMs: { first: 1, max: 1 } });
    expect((await pump.wait(() => true, 's1')).id).toBe('m1');
    const refused = new AuthError('unauthorized', 'bad token', { status: 401 });
    const p2 = new AnswerPump({ transport: scripted([refused]).transport, agent: undefined });
    await expect(p2.wait(() => true, undefined)).rejects.toBe(refused);
  });

  it('with a cursor, hands out a batch at once, acknowledges it on the next poll, and hands a repeat out once (ADR 0274)', async () => {
    const a = tap('m1', 's1', 'ask', 'Soup');
    const b = tap('m2', 's2', 'ask', 'Rice');
    const { transport, calls } = scripted([
      { answers: [a], cursor: 'c1' },
      new TypeError('fetch failed'),
      // The next poll still holds c1: the service repeats nothing it acknowledged, but a repeat is harmless.
      { answers: [a, b], cursor: 'c2' },
    ]);
    const pump = new AnswerPump({ transport, agent: undefined, retryMs: { first: 1, max: 1 } });
    expect(await pump.wait((x) => x.screen_id === 's1', 's1')).toBe(a);
    // No call of its own to acknowledge: the next wait's poll carries the cursor.
    expect(calls.map((c) => [c.cursor, c.wait])).toEqual([['', 25]]);
    expect(await pump.wait((x) => x.screen_id === 's2', 's2')).toBe(b);
    expect(calls.map((c) => [c.cursor, c.wait])).toEqual([
      ['', 25],
      ['c1', 25],
      ['c1', 25],
    ]);
    const stop = new AbortController();
    const again = pump.wait((x) => x.id === 'm1', undefined, stop.signal);
    stop.abort('once');
    await expect(again).rejects.toBe('once');
  });
});
