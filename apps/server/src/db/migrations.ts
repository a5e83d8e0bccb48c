// Versioned schema migrations. Append only: never edit a migration that has shipped.
// Version 1 is the server's own; versions 2 to 49 come from @screen-service/service-core (ADR 0050); the
// runner is the one of @screen-service/tables-engine/migrations (ADR 0090).

import { coreMigrations } from '@screen-service/service-core/sqlite';
import type { Migration } from '@screen-service/tables-engine/migrations';

export type { Migration };

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
