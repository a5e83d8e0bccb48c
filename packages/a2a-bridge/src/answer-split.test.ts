// splitAnswer: the first fenced svc block becomes the screen; other fences and prose stay text.
import { describe, expect, it } from 'vitest';
import { splitAnswer } from './answer-split.js';

describe('splitAnswer', () => {
  it('takes the first svc block as the screen', () => {
    expect(splitAnswer('Pick one:\n```svc\nchoose@lunch "Lunch?" Pasta|Salad\n```\nThanks')).toEqual({
      text: 'Pick one:\nThanks',
      lines: 'choose@lunch "Lunch?" Pasta|Salad',
    });
  });

  it('leaves code fences, a second svc block and an unclosed block in the text', () => {
    const code = 'Run:\n```sh\nls\n```';
    expect(splitAnswer(code)).toEqual({ text: code });
    const two = splitAnswer('```svc\na\n```\n```svc\nb\n```');
    expect(two).toEqual({ lines: 'a', text: '```svc\nb\n```' });
    expect(splitAnswer('Hi\n```svc\nchoose "Q?" a|b')).toEqual({ text: 'Hi\n```svc\nchoose "Q?" a|b' });
  });

  it('plain text stays as it is; an empty block is no screen', () => {
    expect(splitAnswer('echo: hi')).toEqual({ text: 'echo: hi' });
    expect(splitAnswer('x\n```svc\n```')).toEqual({ text: 'x' });
  });
});
