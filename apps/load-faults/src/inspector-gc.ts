// A full garbage collection in another Node process, asked through its inspector (started with
// `--inspect=127.0.0.1:0`): the load suite's leak check measures the heap after it, so garbage an idle
// server has not yet collected does not count as growth, and what stays is what the server really holds.

/** The inspector's WebSocket address from the line Node prints to stderr, or undefined. */
export function inspectorUrl(stderr: string): string | undefined {
  return /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(stderr)?.[1];
}

/**
 * Runs `HeapProfiler.collectGarbage` in the process behind `url` and resolves when it is done.
 *
 * @example `await collectGarbage(inspectorUrl(stderrText)!);`
 */
export async function collectGarbage(url: string, timeoutMs = 30_000): Promise<void> {
  const ws = new WebSocket(url);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer from the inspector at ${url} in ${timeoutMs} ms`)),
        timeoutMs,
      );
      ws.addEventListener('open', () =>
        ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' })),
      );
      ws.addEventListener('message', (event) => {
        const reply = JSON.parse(String(event.data)) as { id?: number; error?: { message: string } };
        if (reply.id !== 1) return;
        clearTimeout(timer);
        if (reply.error) reject(new Error(`the inspector refused collectGarbage: ${reply.error.message}`));
        else resolve();
      });
      ws.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error(`cannot reach the inspector at ${url}`));
      });
    });
  } finally {
    ws.close();
  }
}
