import type { MessageRecord } from '@screen-service/registry/model';
import { describe, expect, it } from 'vitest';
import { buildMessages, SERVICE_LINE_PREFIX, splitScreen } from './prompt.js';

let seq = 0;
const row = (sender: 'agent' | 'person', body: string, extra: Partial<MessageRecord> = {}): MessageRecord =>
  ({
    seq: ++seq,
    id: `m${seq}`,
    userId: 'u',
    agentId: 'a',
    sender,
    kind: 'text',
    body,
    meta: {},
    screenId: null,
    connectorId: null,
    createdAt: seq,
    deliveredAt: null,
    handledAt: null,
    ...extra,
  }) as MessageRecord;

describe('buildMessages', () => {
  it('puts rows sent during a turn after the answer they did not get, and this turn last', () => {
    seq = 0;
    const one = row('person', 'one');
    const two = row('person', 'two');
    const answer = row('agent', 'answer to one', { meta: { turn: ['m1'] } });
    const three = row('person', 'three');
    const msgs = buildMessages({
      system: 'S',
      rows: [one, two, answer, three],
      turn: [two.id, three.id],
      notes: [],
    });
    expect(msgs).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'answer to one' },
      { role: 'user', content: 'two\nthree' },
    ]);
  });

  it('shows screens as svc blocks, leaves out service lines and cards, and puts notes on top', () => {
    seq = 0;
    const rows = [
      row('agent', 'checkin@feel scale "How?"', { kind: 'screen', meta: { text: 'Hi.' } }),
      row('agent', `${SERVICE_LINE_PREFIX}model down`),
      row('agent', 'confirm@x "Delete?" Delete|Keep', { kind: 'screen', meta: { tables_pending: 'p1' } }),
      row('person', '[svc] feel checkin value=4', { kind: 'tap' }),
    ];
    const msgs = buildMessages({ system: 'S', rows, turn: ['m4'], notes: ['[svc] note'] });
    expect(msgs.slice(1)).toEqual([
      { role: 'assistant', content: 'Hi.\n```svc\ncheckin@feel scale "How?"\n```' },
      { role: 'user', content: '[svc] note\n[svc] feel checkin value=4' },
    ]);
  });
});

describe('splitScreen', () => {
  it('takes the svc block out of the words and keeps other code blocks as words', () => {
    expect(splitScreen('Hi\n```svc\nnote "x"\n```\n```js\nx()\n```')).toEqual({
      prose: 'Hi\n```js\nx()\n```',
      lines: 'note "x"',
      deadline: null,
    });
  });
});
