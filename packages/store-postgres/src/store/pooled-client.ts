// A client checked out of a pg.Pool for several statements, kept from crashing the process when its
// connection drops while it is out (PostgreSQL restarted, the network cut).
import type pg from 'pg';

/**
 * Runs `fn` on one pooled client and releases it. While a client is checked out the pool listens to none of
 * its events, and node-postgres emits `error` on a connection that ends unexpectedly (PostgreSQL crashed or
 * restarted, the network dropped): with no listener that event ends the process. Here the error is kept,
 * the statement in flight fails on its own, and the broken client is destroyed on release rather than
 * handed to the next caller.
 *
 * @example
 * ```ts
 * const n = await withPooledClient(pool, async (c) => (await c.query('SELECT 1 AS n')).rows[0].n);
 * ```
 */
export async function withPooledClient<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (err: Error) => {
    lost = err;
  };
  client.on('error', onError);
  try {
    return await fn(client);
  } catch (err) {
    if (lost === undefined && isConnectionLoss(err)) lost = err as Error;
    throw err;
  } finally {
    client.off('error', onError);
    // A truthy argument makes the pool destroy the client rather than reuse it.
    client.release(lost ?? false);
  }
}

/**
 * Whether an error means the connection itself is gone (so the client must not be reused), as opposed to a
 * statement the server refused on a live connection. Server errors carry a five-character SQLSTATE; of
 * those, class 08 (connection exception) and 57P01-57P03 (the server shutting down or restarting) mean the
 * session ended. Errors without a SQLSTATE come from the socket (ECONNRESET, "Connection terminated").
 */
export function isConnectionLoss(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
    return code.startsWith('08') || /^57P0[123]$/.test(code);
  return true;
}
