import { describe, expect, it } from 'vitest';
import { isReadOnly, splitReply } from './reply-split.js';

const never = () => false;
const always = () => true;

describe('splitReply', () => {
  it('takes table lines out of svc and tables blocks and keeps the other svc lines as a block', () => {
    const s = splitReply('Hi\n```svc\nput W a=1\nnote "x"\n```\n```tables\nquery W\n```', never);
    expect(s.lines).toEqual(['put W a=1', 'query W']);
    expect(s.pieces).toEqual([
      { kind: 'text', text: 'Hi' },
      { kind: 'table', line: 'put W a=1', query: false },
      { kind: 'block', lines: ['note "x"'] },
      { kind: 'table', line: 'query W', query: true },
    ]);
  });

  it('leaves code blocks alone and asks about bare lines', () => {
    const s = splitReply('```ts\nquery W\n```\nquery W\nput it there', (l) => l === 'query W');
    expect(s.lines).toEqual(['query W']);
    expect(s.pieces[0]).toEqual({ kind: 'text', text: '```ts' });
    expect(s.pieces.at(-1)).toEqual({ kind: 'text', text: 'put it there' });
  });

  it('an unclosed svc block still gives its lines', () => {
    expect(splitReply('```svc\nquery W', never).lines).toEqual(['query W']);
  });

  it('is a read only when nothing but queries is there', () => {
    expect(isReadOnly(splitReply('```svc\nquery W\nquery V\n```', never))).toBe(true);
    expect(isReadOnly(splitReply('query W\n\n', always))).toBe(true);
    expect(isReadOnly(splitReply('Look:\nquery W', always))).toBe(false);
    expect(isReadOnly(splitReply('```svc\nquery W\nput W a=1\n```', never))).toBe(false);
    expect(isReadOnly(splitReply('```svc\nquery W\nnote "hi"\n```', never))).toBe(false);
    expect(isReadOnly(splitReply('nothing here', never))).toBe(false);
  });
});
