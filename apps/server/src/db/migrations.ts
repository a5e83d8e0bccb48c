// Versioned schema migrations. Append only: never edit a migration that has shipped.
// Version 1 is the server's own; versions 2 to 49 come from @screen-service/service-core (ADR 0050).
import { coreMigrations } from '@screen-service/service-core';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'service-meta',
    sql: `
      CREATE TABLE service_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `,
  },
  ...coreMigrations,
];
