// An event-stream reader on node:http that counts events and bytes, or one that never reads (a slow client).
import http from 'node:http';
import { createSseParser } from '@screen-service/io-kit/sse';

export interface SseStream {
  /** Events received so far (comments and keep-alives are not events). */
  events(): number;
  /** Bytes read so far. */
  bytes(): number;
  /** Resolves when the server ends or cuts the stream (`end`, `reset`) or we close it (`closed`). */
  done: Promise<'end' | 'reset' | 'closed'>;
  /** Reads again after `read: false` (to see how the server ended it). */
  resume(): void;
  close(): void;
}

export interface SseOptions {
  headers?: Record<string, string>;
  /** false: pause the socket at once and never read (the kernel's buffers fill, then the server's). */
  read?: boolean;
  /** Each event's data (for tests that wait for one event). */
  onData?: (data: string) => void;
  timeoutMs?: number;
}

/**
 * Opens `url` and resolves once the answer's head arrived with 200 (rejects with the status otherwise).
 *
 * @example
 * ```ts
 * const s = await openSse(`${base}/functions/v1/svc-app/stream`, { headers: { authorization: `Bearer ${t}` } });
 * s.close();
 * ```
 */
export function openSse(url: string, options: SseOptions = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, {
      headers: { accept: 'text/event-stream', ...options.headers },
      agent: false,
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer from ${url}`)),
      options.timeoutMs ?? 30_000,
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      if (res.statusCode !== 200) {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => reject(new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 200)}`)));
        return;
      }
      let events = 0;
      let bytes = 0;
      const parser = createSseParser();
      const decoder = new TextDecoder();
      let closedByUs = false;
      const done = new Promise<'end' | 'reset' | 'closed'>((settle) => {
        res.on('end', () => settle(closedByUs ? 'closed' : 'end'));
        res.on('error', () => settle(closedByUs ? 'closed' : 'reset'));
        res.on('aborted', () => settle(closedByUs ? 'closed' : 'reset'));
        res.on('close', () => settle(closedByUs ? 'closed' : res.complete ? 'end' : 'reset'));
      });
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        for (const event of parser.feed(decoder.decode(c, { stream: true }))) {
          events++;
          options.onData?.(event.data);
        }
      });
      if (options.read === false) res.pause();
      resolve({
        events: () => events,
        bytes: () => bytes,
        done,
        resume: () => res.resume(),
        close() {
          closedByUs = true;
          req.destroy();
        },
      });
    });
  });
}
