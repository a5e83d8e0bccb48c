// One turn against a webhook agent: a signed JSON POST per turn, retried on 5xx and timeouts only.
import { backoffDelay } from '@screen-service/io-kit/backoff';
import type { TapEvent } from '@screen-service/screen-lines';
import { emptyTaskView, type TaskView } from './answer.js';
import type { Part } from './model.js';
import type { InboundRow } from './service-link.js';
import { sleep } from './sleep.js';
import type { TurnState } from './state-file.js';
import { DELIVERY_HEADER, SIGNATURE_HEADER, signWebhookBody } from './webhook-signature.js';

/** Where a webhook agent lives and how its deliveries are signed. */
export interface WebhookTarget {
  url: string;
  /** The per-agent secret shown once at `pair`. */
  secret: string;
  /** Extra headers given at `pair` (for example `Authorization`). */
  headers?: Record<string, string>;
}

/** The JSON body of one delivery (documented in the README; `version` changes only with a breaking change). */
export interface WebhookTurnBody {
  type: 'turn';
  version: 1;
  /** The turn's id: the same on every retry of this turn (dedupe on it). */
  delivery: string;
  agent: { id: string; name: string };
  /** What the person typed, oldest first. */
  messages: { id: string; text: string }[];
  /** Taps on screens: the tap line and the event. */
  taps: { row: string; line: string; event: TapEvent }[];
  /** After a read or refused writes: `{results, failed, held, tables, note}` of the tables call. */
  tables?: Record<string, unknown>;
  /** After a hand over: the `[svc] tables …` line (doc3 `meta.tables`). */
  tables_line?: string;
}

/** What a webhook answers (2xx, JSON). */
export interface WebhookAnswer {
  /** The answer the person reads (a fenced `svc` block may carry a screen or table lines). */
  reply?: string;
  /** Table lines (text, or a list of lines); without `reply` this is a read and the next POST follows at once. */
  tables?: string | string[];
  /** The screen's deadline (ADR 0260): `{in | at, default, escalate}`, as `svc_show` takes it. */
  deadline?: Record<string, unknown>;
}

/** Retry and timeout settings of webhook deliveries. */
export interface WebhookPolicy {
  /** Per-attempt timeout (ms). */
  timeoutMs: number;
  /** Attempts in all (the first plus retries) before the turn ends with a status line. */
  attempts: number;
  /** First back-off (ms); doubles after each retry, up to {@link WEBHOOK_MAX_BACKOFF_MS}. */
  retryMs: number;
}

/** The longest wait between two deliveries of one turn (ms); the default policy never gets near it. */
export const WEBHOOK_MAX_BACKOFF_MS = 60_000;

/** Default policy: 15 s per attempt, 4 attempts, back-off 0.5 s, 1 s, 2 s. */
export const DEFAULT_WEBHOOK_POLICY: WebhookPolicy = { timeoutMs: 15_000, attempts: 4, retryMs: 500 };

/**
 * The body of a turn's delivery (pure).
 *
 * @example
 * ```ts
 * webhookBody({ agentId: 'agt_1', name: 'Hook' }, turn, formatTapLine).messages; // [{ id, text }]
 * ```
 */
export function webhookBody(
  agent: { agentId: string; name: string },
  turn: TurnState,
  formatTapLine: (event: TapEvent) => string,
): WebhookTurnBody {
  const rows: InboundRow[] = turn.rows;
  const body: WebhookTurnBody = {
    type: 'turn',
    version: 1,
    delivery: turn.messageId,
    agent: { id: agent.agentId, name: agent.name },
    messages: rows.flatMap((r) => (r.text ? [{ id: r.id, text: r.text }] : [])),
    taps: rows.flatMap((r) =>
      r.tap ? [{ row: r.id, line: formatTapLine(r.tap).split('\n')[0] ?? '', event: r.tap }] : [],
    ),
  };
  const tables = rows.filter((r) => r.tables).map((r) => r.tables!);
  if (tables.length > 0) body.tables = Object.assign({}, ...tables);
  const line = rows.flatMap((r) => (r.metaTables ? [r.metaTables] : [])).join('\n');
  if (line) body.tables_line = line;
  return body;
}

/** Turns a webhook's JSON answer into a view the engine reads like an A2A message answer. */
function viewOf(answer: WebhookAnswer, messageId: string): TaskView {
  const parts: Part[] = [];
  if (typeof answer.reply === 'string' && answer.reply.trim() !== '')
    parts.push({ kind: 'text', text: answer.reply });
  if (answer.tables !== undefined && answer.tables !== null && answer.tables !== '') {
    parts.push({ kind: 'data', data: { svc: 'tables', lines: answer.tables } });
  }
  if (typeof answer.deadline === 'object' && answer.deadline !== null) {
    parts.push({ kind: 'data', data: { ...answer.deadline, svc: 'deadline' } });
  }
  return { ...emptyTaskView(), state: 'completed', message: { messageId, role: 'agent', parts } };
}

const refusal = (text: string): TaskView => ({ ...emptyTaskView(), refusal: text });

/**
 * Delivers one turn: POSTs the signed body; a 2xx answer ends the turn (never retried); 5xx, 408, 429,
 * timeouts and connection failures are retried with back-off; any other status, a body that is not the
 * answer shape, or the last failed attempt ends the turn with a status line saying why. `undefined` when
 * `signal` aborted.
 *
 * @example
 * ```ts
 * const view = await runWebhookTurn(target, body, DEFAULT_WEBHOOK_POLICY);
 * ```
 */
export async function runWebhookTurn(
  target: WebhookTarget,
  body: WebhookTurnBody,
  policy: WebhookPolicy,
  options: { fetch?: typeof fetch; signal?: AbortSignal; onRetry?: (why: string) => void } = {},
): Promise<TaskView | undefined> {
  const doFetch = options.fetch ?? fetch;
  const raw = JSON.stringify(body);
  const backoff = { baseMs: policy.retryMs, maxMs: WEBHOOK_MAX_BACKOFF_MS };
  let why = '';
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    if (options.signal?.aborted) return undefined;
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let res: Response | undefined;
    let text = '';
    try {
      res = await doFetch(target.url, {
        method: 'POST',
        headers: {
          ...target.headers,
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signWebhookBody(target.secret, raw, Math.floor(Date.now() / 1000), {
            method: 'POST',
            url: target.url,
            delivery: body.delivery,
          }),
          [DELIVERY_HEADER]: body.delivery,
        },
        body: raw,
        signal,
      });
      text = await res.text();
    } catch (error) {
      if (options.signal?.aborted) return undefined;
      why = timeout.aborted
        ? `no answer within ${policy.timeoutMs} ms`
        : `could not connect (${(error as Error).message})`;
      res = undefined;
    }
    if (res?.ok) {
      let answer: unknown;
      try {
        answer = text === '' ? {} : JSON.parse(text);
      } catch {
        return refusal(`The webhook answered ${res.status} with something that is not JSON {reply, tables}.`);
      }
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
        return refusal(`The webhook answered ${res.status} with JSON that is not an object {reply, tables}.`);
      return viewOf(answer as WebhookAnswer, `${body.delivery}:webhook`);
    }
    if (res) {
      const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
      const hint = res.status === 401 || res.status === 403 ? ' (a key missing? pair with --header)' : '';
      why = `the webhook answered ${res.status}${hint}${text ? `: ${text.slice(0, 200)}` : ''}`;
      if (!retryable) return refusal(`${why.charAt(0).toUpperCase()}${why.slice(1)}`);
    }
    if (attempt < policy.attempts) {
      const delay = backoffDelay(backoff, attempt);
      options.onRetry?.(`${why}; retrying in ${delay} ms`);
      await sleep(delay, options.signal);
    }
  }
  return refusal(`No answer after ${policy.attempts} tries: ${why}.`);
}
