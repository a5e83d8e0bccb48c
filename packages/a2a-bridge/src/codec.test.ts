// Exact wire shapes per version (a 1.0 server silently accepts 0.3 shapes, so servers alone cannot tell).
import { describe, expect, it } from 'vitest';
import { codec03, codec10, codecFor } from './codec.js';
import type { Message } from './model.js';

const message: Message = {
  messageId: 'm1',
  role: 'user',
  contextId: 'agent-1',
  taskId: 't1',
  parts: [
    { kind: 'text', text: 'guide', metadata: { svc: 'channel_guide', version: '1' } },
    { kind: 'file', url: 'https://f/x.pdf', name: 'x.pdf', mediaType: 'application/pdf' },
    { kind: 'data', data: { id: 'n1' } },
  ],
};

describe('codec10', () => {
  it('sends ROLE_USER, parts without kind, returnImmediately, and A2A-Version exactly', () => {
    expect(codec10.sendParams(message, false)).toEqual({
      message: {
        messageId: 'm1',
        role: 'ROLE_USER',
        contextId: 'agent-1',
        taskId: 't1',
        parts: [
          { text: 'guide', metadata: { svc: 'channel_guide', version: '1' } },
          { url: 'https://f/x.pdf', mediaType: 'application/pdf', filename: 'x.pdf' },
          { data: { id: 'n1' } },
        ],
      },
      configuration: { returnImmediately: true },
    });
    expect(codec10.headers('1.0', [])).toEqual({ 'A2A-Version': '1.0' });
    expect(codec10.headers('1.0', ['u1', 'u2'])).toEqual({
      'A2A-Version': '1.0',
      'A2A-Extensions': 'u1, u2',
    });
    expect(codecFor('1.0').methods).toEqual({
      send: 'SendMessage',
      stream: 'SendStreamingMessage',
      get: 'GetTask',
      subscribe: 'SubscribeToTask',
    });
  });

  it('reads wrapped results and stream events, TASK_STATE_* and omitted defaults', () => {
    expect(
      codec10.decodeEvent({
        task: {
          id: 't',
          contextId: 'c',
          status: {
            state: 'TASK_STATE_INPUT_REQUIRED',
            message: { messageId: 'q', role: 'ROLE_AGENT', parts: [{ text: 'Which?' }] },
          },
        },
      }),
    ).toEqual({
      type: 'task',
      task: {
        id: 't',
        contextId: 'c',
        state: 'input-required',
        artifacts: [],
        history: [],
        statusMessage: { messageId: 'q', role: 'agent', parts: [{ kind: 'text', text: 'Which?' }] },
      },
    });
    expect(
      codec10.decodeEvent({
        artifactUpdate: { taskId: 't', artifact: { artifactId: 'a', parts: [{ url: 'https://f' }] } },
      }),
    ).toEqual({
      type: 'artifact',
      taskId: 't',
      artifact: { artifactId: 'a', parts: [{ kind: 'file', url: 'https://f' }] },
      append: false,
    });
    expect(
      codec10.decodeEvent({
        statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_AUTH_REQUIRED' } },
      }),
    ).toMatchObject({
      type: 'status',
      state: 'auth-required',
    });
    expect(() => codec10.decodeEvent({ kind: 'task' })).toThrow(
      expect.objectContaining({ code: 'RPC_BAD_RESPONSE' }),
    );
  });
});

describe('codec03', () => {
  it('sends kind-tagged parts, lowercase role and an explicit blocking flag; no version header', () => {
    expect(codec03.sendParams(message, true)).toEqual({
      message: {
        kind: 'message',
        messageId: 'm1',
        role: 'user',
        contextId: 'agent-1',
        taskId: 't1',
        parts: [
          { kind: 'text', text: 'guide', metadata: { svc: 'channel_guide', version: '1' } },
          { kind: 'file', file: { uri: 'https://f/x.pdf', mimeType: 'application/pdf', name: 'x.pdf' } },
          { kind: 'data', data: { id: 'n1' } },
        ],
      },
      configuration: { blocking: true },
    });
    expect(codec03.headers('0.3', [])).toEqual({});
    expect(codec03.headers('0.3', ['u1'])).toEqual({ 'X-A2A-Extensions': 'u1' });
    expect(codecFor('0.3').methods.subscribe).toBe('tasks/resubscribe');
  });

  it('reads bare results by kind; the state decides, not the final flag', () => {
    expect(
      codec03.decodeEvent({
        kind: 'status-update',
        taskId: 't',
        contextId: 'c',
        status: { state: 'working' },
        final: true,
      }),
    ).toEqual({
      type: 'status',
      taskId: 't',
      contextId: 'c',
      state: 'working',
    });
    expect(
      codec03.decodeEvent({
        kind: 'message',
        messageId: 'm',
        role: 'agent',
        parts: [{ kind: 'file', file: { bytes: 'AA==', name: 'a.bin' } }],
      }),
    ).toEqual({
      type: 'message',
      message: { messageId: 'm', role: 'agent', parts: [{ kind: 'file', bytes: 'AA==', name: 'a.bin' }] },
    });
    expect(() => codec03.decodeEvent({ task: {} })).toThrow(/cannot read/);
  });
});
