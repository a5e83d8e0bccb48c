// The SSE reader: frames split anywhere, named events, comments and CRLF.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse.js';

describe('createSseParser', () => {
  it('reads data frames, named events, multi-line data; skips comments', () => {
    const p = createSseParser();
    const text =
      ': keep-alive\n\ndata: {"a":1}\n\nevent: error\ndata: {"error":{}}\r\n\r\ndata: x\ndata: y\n\n';
    expect(p.feed(text)).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'error', data: '{"error":{}}' },
      { event: 'message', data: 'x\ny' },
    ]);
  });

  it('gives the same frames however the text is split', () => {
    const text = 'data: {"one":1}\n\nevent: error\ndata: two\n\ndata: three\n\n';
    const whole = createSseParser().feed(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 6 }), (cuts) => {
        const p = createSseParser();
        const points = [0, ...cuts.sort((a, b) => a - b), text.length];
        const frames = points.slice(1).flatMap((end, i) => p.feed(text.slice(points[i], end)));
        expect(frames).toEqual(whole);
      }),
    );
  });
});
