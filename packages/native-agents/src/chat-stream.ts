// Reads a chat-completions SSE stream (`data: {...}` events ending in `data: [DONE]`) into text and usage.
import { readSse } from '@screen-service/io-kit/sse';
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
 * Consumes the body of a streaming answer with io-kit's event-stream parser: only the events' data matter
 * (their type, ids and comments do not); `[DONE]` ends it. A last event the stream ends without its
 * closing blank line is dropped, as the format says.
 *
 * @example
 * ```ts
 * const { text, tokens } = await readChatStream(response.body!);
 * ```
 */
export async function readChatStream(body: ReadableStream<Uint8Array>): Promise<StreamedAnswer> {
  let text = '';
  let tokens: number | null = null;
  for await (const { data } of readSse(body)) {
    if (data.trim() === '[DONE]') break;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
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
  }
  return { text, tokens };
}
