// The PostgreSQL setting an operator gives (SVC_DATABASE_URL), as a zod rule a service's environment schema
// spreads in. Set, it selects PostgreSQL; unset, the service stays on its one SQLite file.
import { z } from 'zod';

const URL_HINT =
  'SVC_DATABASE_URL must be a PostgreSQL URL, for example postgres://svc:secret@127.0.0.1:5432/svc';

/** The variable's rule (optional). */
export const POSTGRES_ENV = {
  SVC_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/[^/\s]+\/[^\s]*$/, URL_HINT)
    .optional(),
};
