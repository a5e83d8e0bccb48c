// Folding events into a task view and the view into what the person reads.
import { describe, expect, it } from 'vitest';
import { answerFor, applyEvent, emptyTaskView, endsTurn, type TaskView } from './answer.js';
import type { A2AEvent, Message } from './model.js';

const agentMsg = (text: string): Message => ({
  messageId: text,
  role: 'agent',
  parts: [{ kind: 'text', text }],
});
const fold = (events: A2AEvent[]): TaskView => events.reduce(applyEvent, emptyTaskView());
const task = (state: 'submitted' | 'completed', extra = {}): A2AEvent => ({
  type: 'task',
  task: { id: 't1', contextId: 'c', state, artifacts: [], history: [], ...extra },
});

describe('applyEvent and answerFor', () => {
  it('appends chunks to an artifact, replaces without append; snapshots without artifacts keep them', () => {
    const view = fold([
      task('submitted'),
      {
        type: 'artifact',
        taskId: 't1',
        artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'Hel' }] },
        append: false,
      },
      {
        type: 'artifact',
        taskId: 't1',
        artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'lo' }] },
        append: true,
      },
      {
        type: 'artifact',
        taskId: 't1',
        artifact: { artifactId: 'b', parts: [{ kind: 'text', text: 'x' }] },
        append: false,
      },
      {
        type: 'artifact',
        taskId: 't1',
        artifact: { artifactId: 'b', parts: [{ kind: 'text', text: 'y' }] },
        append: false,
      },
      { type: 'status', taskId: 't1', contextId: 'c', state: 'working' },
      { type: 'status', taskId: 't1', contextId: 'c', state: 'completed', message: agentMsg('Hello') },
    ]);
    expect(endsTurn(view)).toBe(true);
    // The final status message adds nothing here (its text is already in the artifacts).
    expect(answerFor(view, 'A')).toEqual({ kind: 'answer', text: 'Hello\n\ny', tables: [] });
  });

  it('with nothing else, the last status message; then the last agent message of the history', () => {
    const working = fold([
      task('submitted'),
      { type: 'status', taskId: 't1', contextId: 'c', state: 'working', message: agentMsg('thinking') },
    ]);
    expect(endsTurn(working)).toBe(false);
    const done = applyEvent(working, { type: 'status', taskId: 't1', contextId: 'c', state: 'completed' });
    expect(answerFor(done, 'A').text).toBe('thinking');
    const read = fold([
      task('completed', {
        history: [
          { ...agentMsg('from history'), role: 'agent' },
          { ...agentMsg('q'), role: 'user' },
        ],
      }),
    ]);
    expect(answerFor(read, 'A').text).toBe('from history');
    expect(answerFor(fold([task('completed')]), 'A').text).toBe('A finished without an answer.');
  });

  it('a file part shows as its link; data parts are skipped except tables lines', () => {
    const view = fold([
      {
        type: 'artifact',
        taskId: 't1',
        artifact: {
          artifactId: 'a',
          parts: [
            { kind: 'text', text: 'See' },
            { kind: 'file', url: 'https://f/x.pdf', name: 'x.pdf' },
            { kind: 'data', data: { chart: 1 } },
            { kind: 'data', data: { svc: 'tables', lines: 'put meals mon dish=soup' } },
          ],
        },
        append: false,
      },
      { type: 'status', taskId: 't1', contextId: 'c', state: 'completed' },
    ]);
    expect(answerFor(view, 'A')).toEqual({
      kind: 'answer',
      text: 'See\nhttps://f/x.pdf',
      tables: ['put meals mon dish=soup'],
    });
  });

  it('a direct message is the answer; a refusal is one status line with what the agent said', () => {
    expect(answerFor(fold([{ type: 'message', message: agentMsg('hi') }]), 'A')).toMatchObject({
      kind: 'answer',
      text: 'hi',
    });
    expect(answerFor({ ...emptyTaskView(), refusal: 'bad params' }, 'A')).toMatchObject({
      kind: 'status',
      text: 'A could not take the message.\nbad params',
    });
  });

  it('canceled says so; without a reason, just the line', () => {
    const view = fold([{ type: 'status', taskId: 't1', contextId: 'c', state: 'canceled' }]);
    expect(answerFor(view, 'A')).toMatchObject({ kind: 'status', text: 'A canceled the task.' });
  });
});
