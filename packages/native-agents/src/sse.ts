// Reads a chat-completions SSE stream (`data: {...}` events ending in `data: [DONE]`) into text and usage.
import { ModelError } from './errors.js';

/** What a finished stream gave. */
export interface StreamedAnswer {
  text: string;
  /** `usage.total_tokens` of the last chunk that carried usage, or null. */
  tokens: number | null;
}

interface Chunk {
  choices?: { delta?: { content?: unknown } }[];
  usage?: { total_tokens?: unknown } | null;
  error?: { message?: unknown };
}

/**
 * Consumes the body of a streaming answer. Events may be split across network chunks; only `data:` fields
 * matter (comments and other fields are skipped, as the SSE format allows).
 *
 * @example
 * ```ts
 * const { text, tokens } = await readChatStream(response.body!);
 * ```
 */
export async function readChatStream(body: ReadableStream<Uint8Array>): Promise<StreamedAnswer> {
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  let tokens: number | null = null;
  let data: string[] = [];
  let done = false;
  const dispatch = () => {
    if (data.length === 0) return;
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '[DONE]') {
      done = true;
      return;
    }
    let chunk: Chunk;
    try {
      chunk = JSON.parse(payload) as Chunk;
    } catch {
      throw new ModelError('MODEL_BAD_ANSWER', 'The model sent a stream event that is not JSON.');
    }
    if (chunk.error) {
      throw new ModelError(
        'MODEL_BAD_ANSWER',
        `The model stopped with an error: ${String(chunk.error.message)}`,
      );
    }
    const piece = chunk.choices?.[0]?.delta?.content;
    if (typeof piece === 'string') text += piece;
    const total = chunk.usage?.total_tokens;
    if (typeof total === 'number') tokens = total;
  };
  const line = (l: string) => {
    if (l === '') dispatch();
    else if (l.startsWith('data:')) data.push(l.slice(l.startsWith('data: ') ? 6 : 5));
  };
  for await (const bytes of body as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let at = buffer.search(/\r?\n/);
    while (at >= 0) {
      const nl = buffer[at] === '\r' ? 2 : 1;
      line(buffer.slice(0, at));
      buffer = buffer.slice(at + nl);
      if (done) return { text, tokens };
      at = buffer.search(/\r?\n/);
    }
  }
  if (buffer !== '') line(buffer);
  dispatch();
  return { text, tokens };
}
