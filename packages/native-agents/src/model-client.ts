// A client for any OpenAI-compatible chat-completions endpoint over fetch: streaming when the server
// offers it, a timeout per attempt, and retries with back-off for failures that may pass.
import { backoffDelay } from '@screen-service/io-kit/backoff';
import { readChatStream } from './chat-stream.js';
import { ModelError } from './errors.js';

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A model's answer. */
export interface ChatAnswer {
  text: string;
  /** Tokens the call used: the server's `usage.total_tokens`, else an estimate (characters / 4). */
  tokens: number;
  /** True when the answer arrived as an SSE stream. */
  streamed: boolean;
}

/** What the runtime needs from a model. */
export interface ModelClient {
  complete(messages: ChatMessage[], signal?: AbortSignal): Promise<ChatAnswer>;
}

/** The operator's model settings (`SVC_MODEL_URL`, `SVC_MODEL_KEY`, `SVC_MODEL_NAME`). */
export interface ModelConfig {
  /** Base URL (`https://api.example.com/v1`) or the full `.../chat/completions` URL. */
  url: string;
  /** Sent as `Authorization: Bearer <key>` when set (local servers often need none). */
  key?: string | null;
  /** The `model` field of each request. */
  model: string;
}

export interface ModelClientOptions extends ModelConfig {
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** One attempt's limit, stream included (ms); default 60 000. */
  timeoutMs?: number;
  /** Attempts per call; default 3. */
  attempts?: number;
  /** First back-off (ms), doubled each retry (at most a minute); default 500. */
  backoffMs?: number;
  /** Default: setTimeout. Tests pass a quicker one. */
  sleep?: (ms: number) => Promise<void>;
  /** Ask for an SSE stream (`stream: true`); default true. A server that answers JSON instead is read as JSON. */
  stream?: boolean;
}

/** The chat-completions URL of a configured base URL. */
export function completionsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

/**
 * Checks the operator's settings and returns them cleaned, or throws `INVALID_MODEL_CONFIG` naming the
 * setting and the fix.
 *
 * @example
 * ```ts
 * checkModelConfig({ url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
 * ```
 */
export function checkModelConfig(config: ModelConfig): ModelConfig {
  let parsed: URL;
  try {
    parsed = new URL(config.url);
  } catch {
    throw new ModelError(
      'INVALID_MODEL_CONFIG',
      `SVC_MODEL_URL "${config.url}" is not a URL: give the endpoint's base, e.g. http://127.0.0.1:11434/v1.`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ModelError('INVALID_MODEL_CONFIG', `SVC_MODEL_URL must start with http:// or https://.`);
  }
  if (config.model.trim() === '') {
    throw new ModelError(
      'INVALID_MODEL_CONFIG',
      'SVC_MODEL_NAME is required with SVC_MODEL_URL: the model the endpoint serves, e.g. gpt-4o-mini.',
    );
  }
  return { url: config.url, key: config.key ?? null, model: config.model.trim() };
}

const RETRY_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const estimate = (chars: number) => Math.ceil(chars / 4);

/**
 * @example
 * ```ts
 * const model = createModelClient({ url: 'http://127.0.0.1:8080/v1', model: 'qwen2.5' });
 * const { text } = await model.complete([{ role: 'user', content: 'Hi' }]);
 * ```
 */
export function createModelClient(options: ModelClientOptions): ModelClient {
  const config = checkModelConfig(options);
  const url = completionsUrl(config.url);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const attempts = Math.max(1, options.attempts ?? 3);
  // Doubling from `backoffMs`; the cap is never reached with the few attempts a turn can wait for.
  const backoff = { baseMs: options.backoffMs ?? 500, maxMs: 60_000 };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const stream = options.stream ?? true;

  async function once(messages: ChatMessage[], outer?: AbortSignal): Promise<ChatAnswer> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    const body = {
      model: config.model,
      messages,
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
    const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: stream ? 'text/event-stream, application/json' : 'application/json',
          ...(config.key ? { authorization: `Bearer ${config.key}` } : {}),
        },
        body: JSON.stringify(body),
        signal,
      });
      if (!res.ok) {
        const detail = (await res.text().catch(() => '')).slice(0, 200);
        const code = RETRY_STATUS.has(res.status) ? 'MODEL_BUSY' : 'MODEL_REFUSED';
        throw new ModelError(code, `The model answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`);
      }
      const type = res.headers.get('content-type') ?? '';
      if (type.includes('text/event-stream') && res.body) {
        const got = await readChatStream(res.body);
        return {
          text: got.text,
          tokens: got.tokens ?? estimate(promptChars + got.text.length),
          streamed: true,
        };
      }
      let json: { choices?: { message?: { content?: unknown } }[]; usage?: { total_tokens?: unknown } };
      try {
        json = (await res.json()) as typeof json;
      } catch {
        throw new ModelError('MODEL_BAD_ANSWER', 'The model answered with something that is not JSON.');
      }
      const content = json.choices?.[0]?.message?.content;
      if (typeof content !== 'string') {
        throw new ModelError('MODEL_BAD_ANSWER', 'The model answer has no choices[0].message.content.');
      }
      const total = json.usage?.total_tokens;
      return {
        text: content,
        tokens: typeof total === 'number' ? total : estimate(promptChars + content.length),
        streamed: false,
      };
    } catch (err) {
      if (err instanceof ModelError) throw err;
      if (outer?.aborted) throw err;
      if (timeout.aborted) {
        throw new ModelError(
          'MODEL_TIMEOUT',
          `The model did not finish within ${Math.round(timeoutMs / 1000)} s.`,
        );
      }
      throw new ModelError('MODEL_UNREACHABLE', `The model could not be reached (${describe(err)}).`);
    }
  }

  return {
    async complete(messages, signal) {
      let last: ModelError | undefined;
      for (let i = 0; i < attempts; i++) {
        if (i > 0) await sleep(backoffDelay(backoff, i));
        try {
          return await once(messages, signal);
        } catch (err) {
          if (!(err instanceof ModelError) || !err.transient) throw err;
          last = err;
        }
      }
      throw last!;
    },
  };
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  return err instanceof Error ? err.message : String(err);
}
