import type { MessageRecord } from '@screen-service/registry/model';
import { describe, expect, it } from 'vitest';
import {
  notificationBody,
  retryDelayMs,
  screenTitle,
  shouldBuzz,
  threadTag,
  threadUrl,
} from './push-rules.js';

const message = (over: Partial<MessageRecord>): MessageRecord => ({
  seq: 1,
  id: 'msg_1',
  userId: 'usr_1',
  agentId: 'agt_1',
  sender: 'agent',
  kind: 'text',
  body: '',
  meta: {},
  screenId: null,
  connectorId: null,
  createdAt: 0,
  deliveredAt: null,
  handledAt: null,
  ...over,
});

describe('shouldBuzz', () => {
  it('buzzes a closed, unmuted thread only', () => {
    expect(shouldBuzz({ open: false, agentMuted: false })).toBe(true);
    expect(shouldBuzz({ open: true, agentMuted: false })).toBe(false);
    expect(shouldBuzz({ open: false, agentMuted: true })).toBe(false);
  });

  it("a granted thread follows the holder's own switch, not the owner's", () => {
    expect(shouldBuzz({ open: false, agentMuted: true, grantMuted: false })).toBe(true);
    expect(shouldBuzz({ open: false, agentMuted: false, grantMuted: true })).toBe(false);
    expect(shouldBuzz({ open: true, agentMuted: false, grantMuted: false })).toBe(false);
  });
});

describe('what the notification says', () => {
  it('a chat line: its first non-empty line, cut at 120 characters', () => {
    expect(notificationBody(message({ body: '\n\n  Done.\nmore' }), null, 1)).toBe('Done.');
    const long = notificationBody(message({ body: 'x'.repeat(300) }), null, 1);
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });

  it("a screen: its chat line, else the first component's words, else New screen; a burst counts", () => {
    const screen = (ops: unknown[]) => ({
      id: 's',
      userId: 'u',
      agentId: 'a',
      messageId: 'm',
      messageSeq: 1,
      lines: '',
      ops,
      taps: [],
      createdAt: 0,
    });
    const ops = [{ op: 'add', preset: 'choose', id: 'l', props: { question: 'Lunch?', options: ['A'] } }];
    expect(notificationBody(message({ kind: 'screen', meta: { text: 'Pick one' } }), screen(ops), 1)).toBe(
      'Pick one',
    );
    expect(notificationBody(message({ kind: 'screen' }), screen(ops), 3)).toBe('Lunch? (+2 more)');
    expect(notificationBody(message({ kind: 'screen' }), screen([{ op: 'theme', look: {} }]), 1)).toBe(
      'New screen',
    );
    expect(screenTitle([{ op: 'add', preset: 'timer', props: { label: 'Tea', seconds: 60 } }])).toBe('Tea');
  });

  it('tags and links name the thread', () => {
    expect(threadTag('agt_x')).toBe('thread-agt_x');
    expect(threadUrl('https://svc.example/', 'agt x')).toBe('https://svc.example/#/a/agt%20x');
  });
});

describe('retryDelayMs', () => {
  it('honours Retry-After (capped at an hour), else doubles from 1 s up to 10 min with at most 20% jitter', () => {
    expect(retryDelayMs(1, 30_000, 0.9)).toBe(30_000);
    expect(retryDelayMs(1, 10 * 3_600_000, 0)).toBe(3_600_000);
    expect(retryDelayMs(1, undefined, 0)).toBe(1000);
    expect(retryDelayMs(3, undefined, 0)).toBe(4000);
    expect(retryDelayMs(3, undefined, 0.99)).toBeLessThanOrEqual(4800);
    expect(retryDelayMs(30, undefined, 0)).toBe(600_000);
  });
});
