import { describe, expect, it } from 'vitest';
import { readChatStream } from './chat-stream.js';

const body = (...parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });

const delta = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

describe('readChatStream', () => {
  it('joins deltas split anywhere across network chunks, with CRLF lines and comments', async () => {
    const whole = `: hi\r\n\r\n${delta('Hel')}${delta('lo')}data: {"choices":[],"usage":{"total_tokens":9}}\n\ndata: [DONE]\n\n`;
    const parts = whole.match(/.{1,5}/gs)!;
    expect(await readChatStream(body(...parts))).toEqual({ text: 'Hello', tokens: 9 });
  });

  it('reads a stream that ends without [DONE] and without usage', async () => {
    expect(await readChatStream(body(delta('Hi')))).toEqual({ text: 'Hi', tokens: null });
  });

  it('stops with the error a stream reports', async () => {
    await expect(readChatStream(body('data: {"error":{"message":"overloaded"}}\n\n'))).rejects.toThrow(
      /overloaded/,
    );
  });
});
