// The WHATWG event-stream format (Server-Sent Events) read incrementally: text or bytes in, events out.
// One parser for every reader of an event stream (hosts, the A2A bridge, the model client, the load driver).

/** One dispatched event. */
export interface SseEvent {
  /** The block's `event:` field, or `message` when it named none. */
  event: string;
  /** The block's `data:` fields joined with `\n`. */
  data: string;
  /** The last event ID in effect: an `id:` field sets it and it stays for later events ('' = none yet). */
  lastEventId: string;
}

/** Options of {@link createSseParser} and {@link readSse}. */
export interface SseOptions {
  /** A `retry:` field of digits only: the reconnection time (ms) the server asks for. */
  onRetry?(ms: number): void;
}

/** An incremental parser: feed it text as it arrives; each call returns the events it completed. */
export interface SseParser {
  /** Reads more of the stream's text; returns the events whose closing blank line it contained. */
  feed(text: string): SseEvent[];
  /** The last event ID in effect, also after an `id:`-only block (what a reconnection sends as Last-Event-ID). */
  readonly lastEventId: string;
  /** The last reconnection time a `retry:` field set (ms), or undefined. */
  readonly retry: number | undefined;
}

/**
 * Creates a parser that follows the WHATWG rules: lines end with CRLF, LF or CR (a CR at the end of one
 * chunk and an LF at the start of the next are one break); one leading byte-order mark is dropped; lines
 * starting with `:` are comments; `field: value` loses one space after the colon; a line without a colon is
 * a field with an empty value; `data` lines join with `\n`; `id` (without NUL) carries over to later events;
 * `retry` of digits only is reported; unknown fields are ignored; a blank line dispatches the block if it
 * had data. A block the stream ends without a blank line is never dispatched.
 *
 * @example
 * ```ts
 * const p = createSseParser();
 * p.feed('id: 7\nevent: tap\ndata: {"a":1}\n'); // []
 * p.feed('\n'); // [{ event: 'tap', data: '{"a":1}', lastEventId: '7' }]
 * ```
 */
export function createSseParser(options: SseOptions = {}): SseParser {
  let pending = '';
  let started = false;
  // The previous chunk ended with CR: an LF that starts the next one is part of that line break.
  let skipLf = false;
  let data: string[] = [];
  let event = '';
  let lastEventId = '';
  let retry: number | undefined;
  const breaks = /[\r\n]/g;

  const field = (name: string, value: string) => {
    if (name === 'data') data.push(value);
    else if (name === 'event') event = value;
    else if (name === 'id') {
      if (!value.includes('\0')) lastEventId = value;
    } else if (name === 'retry') {
      if (/^[0-9]+$/.test(value)) {
        retry = Number(value);
        options.onRetry?.(retry);
      }
    }
  };

  const line = (text: string, out: SseEvent[]) => {
    if (text === '') {
      if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), lastEventId });
      data = [];
      event = '';
      return;
    }
    if (text.charCodeAt(0) === 0x3a) return; // a comment
    const colon = text.indexOf(':');
    if (colon < 0) return field(text, '');
    const value = text.charCodeAt(colon + 1) === 0x20 ? text.slice(colon + 2) : text.slice(colon + 1);
    field(text.slice(0, colon), value);
  };

  return {
    get lastEventId() {
      return lastEventId;
    },
    get retry() {
      return retry;
    },
    feed(text) {
      const out: SseEvent[] = [];
      if (text === '') return out;
      if (!started) {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (skipLf) {
        skipLf = false;
        if (text.charCodeAt(0) === 0x0a) text = text.slice(1);
      }
      const buffer = pending + text;
      breaks.lastIndex = pending.length;
      let start = 0;
      for (let m = breaks.exec(buffer); m !== null; m = breaks.exec(buffer)) {
        const at = m.index;
        let next = at + 1;
        if (buffer.charCodeAt(at) === 0x0d) {
          if (next === buffer.length) skipLf = true;
          else if (buffer.charCodeAt(next) === 0x0a) next++;
        }
        line(buffer.slice(start, at), out);
        start = next;
        breaks.lastIndex = next;
      }
      pending = buffer.slice(start);
      return out;
    },
  };
}

/** A body of bytes: a web `ReadableStream` (fetch) or any async iterable of chunks (a Node stream). */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

async function* chunks(body: ByteSource): AsyncGenerator<Uint8Array> {
  if (!('getReader' in body)) {
    yield* body;
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Leaving early (the caller stopped reading) cancels the stream, so its connection is let go.
    await reader.cancel().catch(() => {});
  }
}

/**
 * Reads an event stream's bytes (UTF-8) as events, with {@link createSseParser}'s rules.
 *
 * @example
 * ```ts
 * const res = await fetch(url, { headers: { accept: 'text/event-stream' } });
 * for await (const e of readSse(res.body!)) if (e.event === 'message') handle(JSON.parse(e.data));
 * ```
 */
export async function* readSse(body: ByteSource, options: SseOptions = {}): AsyncGenerator<SseEvent> {
  // The parser drops the one byte-order mark the format allows; the decoder must leave it for it.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const parser = createSseParser(options);
  for await (const chunk of chunks(body)) yield* parser.feed(decoder.decode(chunk, { stream: true }));
  yield* parser.feed(decoder.decode());
}
