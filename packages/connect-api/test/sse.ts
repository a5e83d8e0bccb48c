// A raw SSE reader for tests: collects the events of {connect_url}/messages and waits for the next ones.
import { readSse } from '@screen-service/io-kit/sse';

export interface TestEvent {
  id?: string;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: checked field by field
  data: any;
}

export interface OpenedStream {
  status: number;
  events: TestEvent[];
  /** Resolves with the next `n` events after those already taken. */
  take(n?: number, timeoutMs?: number): Promise<TestEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<number>;
  close(): void;
}

export async function openStream(
  connectUrl: string,
  token: string,
  headers: Record<string, string> = {},
  query = '',
): Promise<OpenedStream> {
  const controller = new AbortController();
  const res = await fetch(`${connectUrl}/messages${query}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: TestEvent[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  const ended = (async () => {
    if (!res.ok || !res.body) return Date.now();
    try {
      for await (const e of readSse(res.body)) {
        events.push({
          ...(e.lastEventId ? { id: e.lastEventId } : {}),
          event: e.event,
          data: JSON.parse(e.data),
        });
        wake?.();
      }
    } catch {
      // aborted by close()
    }
    wake?.();
    return Date.now();
  })();
  return {
    status: res.status,
    events,
    async take(n = 1, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < taken + n) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${n} event(s); have ${JSON.stringify(events.slice(taken))}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
      const out = events.slice(taken, taken + n);
      taken += n;
      return out;
    },
    ended,
    close: () => controller.abort(),
  };
}
