// The store a CLI command works on: the SQLite file of the data folder, or with SVC_DATABASE_URL the shared
// PostgreSQL database every instance serves (then no SQLite file is opened, created or named).
import { createServices, type ServerConfig, type Services } from '@screen-service/server';
import { createPostgresServices, describeDatabaseUrl } from '@screen-service/store-postgres';
import { openServiceDatabase } from '@screen-service/store-sqlite';

/** The services over the configured store, where they are (for messages), and how to close them. */
export interface OpenedServices {
  services: Services;
  /** `data folder: <dir>` on SQLite, `database: postgres://user@host:port/db` (no password) on PostgreSQL. */
  where: string;
  close(): Promise<void>;
}

/**
 * Opens the service's store as the server would. On PostgreSQL the command's events (a revoke, a grant) go
 * out through NOTIFY, so the running instances redraw; `close()` sends what is queued first.
 */
export async function openServices(config: ServerConfig): Promise<OpenedServices> {
  // Native agents' turns are the servers' work; a command that exits at once must not take one.
  const { model: _model, ...cliConfig } = config;
  if (config.databaseUrl) {
    const postgres = await createPostgresServices(config.databaseUrl);
    try {
      const services = createServices(cliConfig, null, { postgres });
      return {
        services,
        where: `database: ${describeDatabaseUrl(config.databaseUrl)}`,
        close: () => postgres.close(),
      };
    } catch (err) {
      await postgres.close();
      throw err;
    }
  }
  const db = openServiceDatabase(config.dataDir);
  try {
    return {
      services: createServices(cliConfig, db),
      where: `data folder: ${config.dataDir}`,
      close: async () => {
        db.close();
      },
    };
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Runs `fn` over the configured store and closes it after, whatever `fn` did. */
export async function withServices<T>(
  config: ServerConfig,
  fn: (services: Services, where: string) => Promise<T>,
): Promise<T> {
  const opened = await openServices(config);
  try {
    return await fn(opened.services, opened.where);
  } finally {
    await opened.close();
  }
}
