// The event-stream parser against the WHATWG rules, examples from the standard, and properties over any split.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser, readSse, type SseEvent } from './sse.js';

const parse = (text: string) => createSseParser().feed(text);
const msg = (data: string, lastEventId = '', event = 'message'): SseEvent => ({ event, data, lastEventId });

function bytes(...parts: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(typeof p === 'string' ? new TextEncoder().encode(p) : p);
      c.close();
    },
  });
}

async function all(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of readSse(body)) out.push(e);
  return out;
}

describe('createSseParser: the WHATWG rules', () => {
  it('joins data lines with LF (the stock-ticker example of the standard)', () => {
    expect(parse('data: YHOO\ndata: +2\ndata: 10\n\n')).toEqual([msg('YHOO\n+2\n10')]);
  });

  it('keeps the last event ID across events; a bare `id` clears it; one space after the colon goes', () => {
    const text =
      ': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n';
    expect(parse(text)).toEqual([msg('first event', '1'), msg('second event', ''), msg(' third event', '')]);
    const p = createSseParser();
    expect(p.feed('id: 9\ndata: a\n\ndata: b\n\n')).toEqual([msg('a', '9'), msg('b', '9')]);
  });

  it('dispatches an empty data field, and drops a block the stream ends without a blank line', () => {
    expect(parse('data\n\ndata\ndata\n\ndata:')).toEqual([msg(''), msg('\n')]);
    expect(parse('data:test\n\ndata: test\n\n')).toEqual([msg('test'), msg('test')]);
  });

  it('ends lines with LF, CR or CRLF, also when a CRLF is split between two chunks', () => {
    expect(parse('data: a\rdata: b\r\n\r\ndata: c\r\rdata: d\n\n')).toEqual([
      msg('a\nb'),
      msg('c'),
      msg('d'),
    ]);
    const p = createSseParser();
    expect(p.feed('data: x\r')).toEqual([]);
    // The LF completes the CR's line break; it is not a blank line of its own.
    expect(p.feed('\ndata: y\r')).toEqual([]);
    expect(p.feed('')).toEqual([]);
    expect(p.feed('\n\r\n')).toEqual([msg('x\ny')]);
  });

  it('names the event type, resets it after each block, and resets it too after a block without data', () => {
    expect(parse('event: tap\ndata: 1\n\ndata: 2\n\nevent: gone\n\ndata: 3\n\nevent:\ndata: 4\n\n')).toEqual([
      msg('1', '', 'tap'),
      msg('2'),
      msg('3'),
      msg('4'),
    ]);
  });

  it('skips comments and unknown fields; a line without a colon is a field with an empty value', () => {
    expect(parse(':hi\n: there\nfoo: bar\nDATA: no\ndata\n\n')).toEqual([msg('')]);
    expect(parse('dat\n\n')).toEqual([]);
  });

  it('keeps colons after the first one and everything but one leading space', () => {
    expect(parse('data:  {"a": "b:c"}  \n\n')).toEqual([msg(' {"a": "b:c"}  ')]);
  });

  it('drops one leading byte-order mark, only at the start of the stream', () => {
    expect(parse('\uFEFFdata: a\n\n')).toEqual([msg('a')]);
    const p = createSseParser();
    expect(p.feed('data: a\n\n')).toEqual([msg('a')]);
    // Later the mark is an ordinary character: here it begins a field name nobody knows.
    expect(p.feed('\uFEFFdata: b\n\n')).toEqual([]);
    expect(parse('\uFEFF\uFEFFdata: c\n\n')).toEqual([]);
  });

  it('ignores an id holding NUL, and reports a retry of digits only', () => {
    expect(parse('id: 5\n\nid: a\0b\ndata: x\n\n')).toEqual([msg('x', '5')]);
    const seen: number[] = [];
    const p = createSseParser({ onRetry: (ms) => seen.push(ms) });
    p.feed('retry: 1500\nretry: 2s\nretry: -1\nretry:\nretry: 30\n\n');
    expect(seen).toEqual([1500, 30]);
    expect(p.retry).toBe(30);
    expect(p.lastEventId).toBe('');
    p.feed('id: 42\n\n');
    expect(p.lastEventId).toBe('42');
  });
});

describe('createSseParser: the cases of the copies it replaced', () => {
  it('reads data frames, named events, multi-line data; skips comments (the A2A bridge’s reader)', () => {
    const text =
      ': keep-alive\n\ndata: {"a":1}\n\nevent: error\ndata: {"error":{}}\r\n\r\ndata: x\ndata: y\n\n';
    expect(parse(text)).toEqual([msg('{"a":1}'), msg('{"error":{}}', '', 'error'), msg('x\ny')]);
  });

  it('gives each host message its seq as the event id (the host client’s reader)', () => {
    const text =
      'id: 1\nevent: message\ndata: {"seq":1}\n\n: keepalive\n\nid: 2\nevent: message\ndata: {"seq":2}\n\n';
    expect(parse(text).map((e) => [e.lastEventId, e.event, e.data])).toEqual([
      ['1', 'message', '{"seq":1}'],
      ['2', 'message', '{"seq":2}'],
    ]);
  });
});

// A model of a stream: blocks of fields, written with any line break, read back as the events they make.
const lineBreak = fc.constantFrom('\n', '\r', '\r\n');
const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', 'é', '😀', '{', '"', '\t') });
const block = fc.record({
  event: fc.option(fc.string({ unit: fc.constantFrom('a', 'b', 'x'), minLength: 1 }), { nil: undefined }),
  id: fc.option(fc.string({ unit: fc.constantFrom('1', '2', 'z') }), { nil: undefined }),
  data: fc.array(text, { maxLength: 3 }),
  comment: fc.boolean(),
});

const streams = fc.tuple(fc.array(block, { maxLength: 6 }), lineBreak, fc.boolean()).map(([bs, nl, bom]) => {
  let out = bom ? '\uFEFF' : '';
  let lastEventId = '';
  const events: SseEvent[] = [];
  for (const b of bs) {
    if (b.comment) out += `: keep-alive${nl}`;
    if (b.event !== undefined) out += `event: ${b.event}${nl}`;
    if (b.id !== undefined) {
      out += `id: ${b.id}${nl}`;
      lastEventId = b.id;
    }
    for (const d of b.data) out += `data: ${d}${nl}`;
    out += nl;
    if (b.data.length > 0) events.push({ event: b.event ?? 'message', data: b.data.join('\n'), lastEventId });
  }
  return { stream: out, events };
});

/** Cuts `s` at the given points (sorted, deduplicated, inside the string). */
function cut<T extends string | Uint8Array>(s: T, points: number[]): T[] {
  const at = [...new Set(points.map((p) => p % (s.length + 1)))].sort((a, b) => a - b);
  const bounds = [0, ...at, s.length];
  return bounds.slice(1).map((end, i) => s.slice(bounds[i], end) as T);
}

describe('createSseParser: properties', () => {
  it('reads back every block written with any line break, a comment and a BOM', () => {
    fc.assert(
      fc.property(streams, ({ stream, events }) => {
        expect(parse(stream)).toEqual(events);
      }),
    );
  });

  it('gives the same events however the text is split into chunks', () => {
    fc.assert(
      fc.property(streams, fc.array(fc.nat(), { maxLength: 8 }), ({ stream, events }, points) => {
        const p = createSseParser();
        expect(cut(stream, points).flatMap((piece) => p.feed(piece))).toEqual(events);
      }),
    );
  });

  it('never throws on any mix of the format’s characters, and splitting never changes the result', () => {
    const unit = fc.constantFrom(
      '\r',
      '\n',
      ':',
      ' ',
      'd',
      'a',
      't',
      'e',
      'v',
      'n',
      'i',
      '\uFEFF',
      '\0',
      '9',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), fc.array(fc.nat(), { maxLength: 5 }), (s, points) => {
        const whole = parse(s);
        const p = createSseParser();
        expect(cut(s, points).flatMap((piece) => p.feed(piece))).toEqual(whole);
      }),
    );
  });
});

describe('readSse', () => {
  it('decodes bytes split inside a multi-byte character and inside a CRLF', async () => {
    const encoded = new TextEncoder().encode('data: é😀\r\n\r\n');
    fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 6 }), async (points) => {
        expect(await all(bytes(...cut(encoded, points)))).toEqual([msg('é😀')]);
      }),
    );
  });

  it('drops exactly one byte-order mark of the bytes (the decoder leaves it to the parser)', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    expect(await all(bytes(bom, 'data: a\n\n'))).toEqual([msg('a')]);
    expect(await all(bytes(bom, bom, 'data: a\n\n'))).toEqual([]);
  });

  it('reads an async iterable of chunks (a Node stream) and reports retry', async () => {
    async function* source() {
      yield new TextEncoder().encode('retry: 10\nid: 3\ndata: a\n');
      yield new TextEncoder().encode('\n');
    }
    const seen: number[] = [];
    const out: SseEvent[] = [];
    for await (const e of readSse(source(), { onRetry: (ms) => seen.push(ms) })) out.push(e);
    expect(out).toEqual([msg('a', '3')]);
    expect(seen).toEqual([10]);
  });

  it('cancels the stream when the reader stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(new TextEncoder().encode('data: tick\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const e of readSse(body)) {
      expect(e.data).toBe('tick');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
