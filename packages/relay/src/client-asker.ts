// The client's own elicitation, reached the 2025 way: an `elicitation/create` request the relay sends it.
import type { ClientAsker } from './answer-policy.js';
import type { ElicitAnswer } from './phone-ask.js';
import { isObject, type Wire } from './wire.js';

/**
 * Asks the client with its declared elicitation (`capabilities()` gives what its `initialize` declared).
 * Aborting cancels the client's request with `notifications/cancelled`, which is as far as the protocol goes.
 */
export function createClientAsker(
  wire: Wire,
  capabilities: () => Record<string, unknown> | undefined,
): ClientAsker {
  return {
    supports(mode) {
      const e = capabilities();
      if (!e) return false;
      // An empty capability means form only (the 2025-11-25 rule); 2025-06-18 clients send `{}` too.
      if (Object.keys(e).length === 0) return mode === 'form';
      return isObject(e[mode]);
    },
    ask(params, signal) {
      const id = wire.nextId();
      return new Promise<ElicitAnswer>((resolve, reject) => {
        const onAbort = () => {
          wire.awaiting.delete(id);
          void wire.toClient({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: String(signal.reason ?? 'withdrawn') },
          });
          reject(signal.reason);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        wire.awaiting.set(id, (m) => {
          signal.removeEventListener('abort', onAbort);
          if (isObject(m.result) && ['accept', 'decline', 'cancel'].includes(m.result.action as string))
            resolve(m.result as unknown as ElicitAnswer);
          else reject(new Error(isObject(m.error) ? String(m.error.message) : 'not an elicitation result'));
        });
        void wire.toClient({ jsonrpc: '2.0', id, method: 'elicitation/create', params });
      });
    },
  };
}
