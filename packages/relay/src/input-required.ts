// 2026-07-28 multi round-trip requests: an `input_required` result answered by the person, the call retried.
import { answerElicitation, type PolicyOptions } from './answer-policy.js';
import type { ElicitAnswer } from './phone-ask.js';
import { isObject, type Msg, requestServer, type Wire } from './wire.js';

/** The most rounds of `input_required` one call may take before the relay gives up. */
export const MAX_ROUNDS = 8;

/** Only elicitations are the relay's to answer; a result that also asks for sampling or roots goes to the client as it is. */
export function onlyElicitations(result: Record<string, unknown>): boolean {
  const requests = isObject(result.inputRequests) ? Object.values(result.inputRequests) : [];
  return requests.every((r) => isObject(r) && r.method === 'elicitation/create');
}

/** Whether a response is an `input_required` result the relay answers itself. */
export function isRelayedInputRequired(result: unknown): result is Record<string, unknown> {
  return isObject(result) && result.resultType === 'input_required' && onlyElicitations(result);
}

/**
 * Answers each elicitation of `first` (the phone: mid-call the client cannot be asked in this revision), retries
 * `original` with the answers and the server's `requestState` echoed exactly, and repeats while the server asks
 * again; the final response goes to the client under the original id. Nothing is sent once `signal` aborts (the
 * client cancelled the call).
 */
export async function answerInputRequired(
  wire: Wire,
  policy: PolicyOptions,
  original: Msg,
  first: Record<string, unknown>,
  signal: AbortSignal,
): Promise<void> {
  const id = original.id;
  let result = first;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const requests = isObject(result.inputRequests) ? result.inputRequests : {};
    const responses: Record<string, ElicitAnswer> = {};
    for (const [key, req] of Object.entries(requests)) {
      const params = isObject(req) && isObject(req.params) ? req.params : {};
      responses[key] = await answerElicitation(policy, params, signal, undefined);
      if (signal.aborted) return;
    }
    const params: Record<string, unknown> = { ...original.params, inputResponses: responses };
    // The state is echoed exactly, and never sent when the server gave none (the revision's client rules).
    if (typeof result.requestState === 'string') params.requestState = result.requestState;
    else delete params.requestState;
    const reply = await requestServer(wire, { jsonrpc: '2.0', method: original.method, params });
    if (signal.aborted) return;
    if (!isRelayedInputRequired(reply.result)) {
      await wire.toClient({ ...reply, id });
      return;
    }
    result = reply.result;
  }
  await wire.toClient({
    jsonrpc: '2.0',
    id,
    error: {
      code: -32603,
      message: `The server asked for input more than ${MAX_ROUNDS} times; the relay stopped.`,
    },
  });
}
