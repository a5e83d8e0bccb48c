// A turn as one message: the messageId, the guide, taps, tables and the graph framework's parts.
import { formatTapLine } from '@screen-service/screen-lines';
import { describe, expect, it } from 'vitest';
import { buildTurnMessage, deriveMessageId } from './turn-message.js';

const guide = { text: 'GUIDE', version: 'g7' };

describe('deriveMessageId', () => {
  it('same rows, same id; other rows or agent, other id; UUID-shaped', () => {
    const id = deriveMessageId('a1', ['r1', 'r2']);
    expect(deriveMessageId('a1', ['r1', 'r2'])).toBe(id);
    expect(deriveMessageId('a1', ['r1'])).not.toBe(id);
    expect(deriveMessageId('a2', ['r1', 'r2'])).not.toBe(id);
    expect(deriveMessageId('a1', ['r1r2'])).not.toBe(deriveMessageId('a1', ['r1', 'r2']));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('buildTurnMessage', () => {
  const tap = { id: 'n1', preset: 'choose', value: 'yes' };

  it('guide first on a new task, the tables line at the top, then rows; taps as line + data', () => {
    const m = buildTurnMessage({
      agentId: 'a1',
      rows: [
        { id: 'r1', text: 'hello', metaTables: '[svc] tables meals(3 rows: day, dish)' },
        { id: 'r2', tap },
        { id: 'r3', tables: { results: [{ cols: ['a'], rows: [[1]], count: 1 }] } },
      ],
      guide,
      graphFramework: false,
      formatTapLine,
    });
    expect(m).toMatchObject({
      role: 'user',
      contextId: 'a1',
      messageId: deriveMessageId('a1', ['r1', 'r2', 'r3']),
    });
    expect(m.taskId).toBeUndefined();
    expect(m.parts).toEqual([
      { kind: 'text', text: 'GUIDE', metadata: { svc: 'channel_guide', version: 'g7' } },
      { kind: 'text', text: '[svc] tables meals(3 rows: day, dish)' },
      { kind: 'text', text: 'hello' },
      { kind: 'text', text: '[svc] n1 choose choice=yes' },
      { kind: 'data', data: tap },
      { kind: 'data', data: { results: [{ cols: ['a'], rows: [[1]], count: 1 }], svc: 'tables' } },
    ]);
  });

  it('a turn that continues a task carries its id and no guide', () => {
    const m = buildTurnMessage({
      agentId: 'a1',
      rows: [{ id: 'r4', text: 'Paris' }],
      taskId: 't1',
      guide,
      graphFramework: false,
      formatTapLine,
    });
    expect(m.taskId).toBe('t1');
    expect(m.parts).toEqual([{ kind: 'text', text: 'Paris' }]);
  });

  it('for the graph framework: one text part, then svc_channel_guide and svc_events as data', () => {
    const m = buildTurnMessage({
      agentId: 'a1',
      rows: [
        { id: 'r1', text: 'hi' },
        { id: 'r2', tap },
      ],
      guide,
      graphFramework: true,
      formatTapLine,
    });
    expect(m.parts).toEqual([
      { kind: 'text', text: 'hi\n[svc] n1 choose choice=yes' },
      {
        kind: 'data',
        data: {
          svc_channel_guide: { version: 'g7', body: 'GUIDE' },
          svc_events: [{ id: 'n1', preset: 'choose', value: 'yes', row: 'r2' }],
        },
      },
    ]);
    const next = buildTurnMessage({
      agentId: 'a1',
      rows: [{ id: 'r3', text: 'more' }],
      taskId: 't',
      guide,
      graphFramework: true,
      formatTapLine,
    });
    expect(next.parts).toEqual([{ kind: 'text', text: 'more' }]);
  });
});
