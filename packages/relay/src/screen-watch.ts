// The agent SDK's tool transport, watched: which screen each phone ask shows, so a restart can withdraw it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ToolTransport } from '@screen-service/agent';

/** The SDK's transport with the screens it shows reported to the ask that showed them. */
export interface ScreenWatch extends ToolTransport {
  /** Runs `ask`; every screen it shows (`svc_show`) is reported to `onShown`, even among asks running at once. */
  during<T>(onShown: (screenId: string) => void, ask: () => Promise<T>): Promise<T>;
}

/**
 * Wraps the transport the relay's `connect()` uses. The SDK's asking methods do not return their screen's id;
 * the wrapper reads it from `svc_show`'s result and hands it to the ask running in that async context.
 *
 * @example
 * ```ts
 * const tools = watchScreens(createMcpTransport({ url, token }));
 * const svc = connect({ url, token, transport: tools });
 * await tools.during((id) => journal.shown(askId, id), () => svc.confirm('Go?'));
 * ```
 */
export function watchScreens(inner: ToolTransport): ScreenWatch {
  const current = new AsyncLocalStorage<(screenId: string) => void>();
  return {
    async call(tool, args, signal) {
      const r = await inner.call(tool, args, signal);
      if (tool === 'svc_show' && typeof r.screen_id === 'string') current.getStore()?.(r.screen_id);
      return r;
    },
    close: () => inner.close(),
    during: (onShown, ask) => current.run(onShown, ask),
  };
}
