// A small incremental Server-Sent Events reader: text in, complete frames out.

/** One complete SSE frame. `event` is `message` unless the server named another. */
export interface SseFrame {
  event: string;
  data: string;
}

/**
 * Incremental SSE parser: feed decoded text as it arrives; complete frames come out.
 *
 * @example
 * ```ts
 * const p = createSseParser();
 * p.feed('data: {"a":1}\n\n'); // [{ event: 'message', data: '{"a":1}' }]
 * ```
 */
export function createSseParser(): { feed(text: string): SseFrame[] } {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  return {
    feed(text) {
      buffer += text;
      const frames: SseFrame[] = [];
      let newline = buffer.search(/\r\n|\r|\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        const width = buffer.startsWith('\r\n', newline) ? 2 : 1;
        buffer = buffer.slice(newline + width);
        if (line === '') {
          if (data.length > 0) frames.push({ event: event || 'message', data: data.join('\n') });
          event = '';
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') data.push(value);
          else if (field === 'event') event = value;
        }
        newline = buffer.search(/\r\n|\r|\n/);
      }
      return frames;
    },
  };
}
