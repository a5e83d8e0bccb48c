// zod schemas of the person's table controls (relay tables): list, give (svc_tables_give), take away, delete.
import { z } from 'zod';

const id = z.string().min(1).max(100);
const iso = z.string().meta({ format: 'date-time' });
const tableName = z.string().min(1).max(32);

export const relayTable = z
  .object({
    name: z.string(),
    rows: z.number().int(),
    cols: z.array(z.string()),
    agent: z.object({ id, handle: z.string(), name: z.string() }).nullable().meta({
      description: 'the holding agent; null while the table is unheld (kept after its agent was removed)',
    }),
    holder: z.string().meta({ description: 'pass back as `from` to give, take away or delete the table' }),
    last_read_at: iso.nullable(),
    expires_at: iso
      .nullable()
      .meta({ description: 'an unheld table is deleted then unless given to an agent' }),
  })
  .meta({ id: 'RelayTable' });
export const relayTableList = z.object({ tables: z.array(relayTable) }).meta({ id: 'RelayTableList' });

export const tableRefBody = z
  .object({ table: tableName, from: z.string().min(1).max(200) })
  .meta({ id: 'RelayTableRef' });

export const giveTableBody = z
  .object({
    table: tableName,
    from: z.string().min(1).max(200),
    to: id.meta({ description: 'the agent that will hold the table' }),
    name: tableName.optional().meta({
      description: 'a new name; without it a clash is given as <name>-<giving agent>',
    }),
  })
  .meta({ id: 'GiveTableRequest' });

export const givenTable = z
  .object({
    table: z.string(),
    agent: z.object({ id, handle: z.string(), name: z.string() }),
    renamed: z.boolean(),
  })
  .meta({ id: 'GivenTable' });

export const deleteAgentQuery = z.object({
  keep_tables: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: "true keeps the agent's tables unheld for 30 days; default deletes them" }),
});

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const replicaBody = z
  .object({
    have: z
      .record(tableName, z.string().max(64))
      .optional()
      .meta({ description: 'the digest this device was given for each table it keeps a copy of' }),
    only: z
      .array(tableName)
      .max(100)
      .optional()
      .meta({ description: 'only these tables (as named by a live `tables` event); default all' }),
  })
  .meta({ id: 'TablesReplicaRequest' });

export const replicaAnswer = z
  .object({
    complete: z
      .boolean()
      .meta({ description: 'every table the agent holds is listed: drop copies of others' }),
    tables: z.array(
      z.object({
        name: z.string(),
        digest: z.string(),
        cols: z.array(
          z.object({
            name: z.string(),
            type: z.enum(['text', 'number', 'date', 'bool']),
            unit: z.string().optional(),
          }),
        ),
        rows: z
          .array(z.array(cell))
          .optional()
          .meta({ description: '[key, ...cells in cols order]; absent when the copy is current' }),
      }),
    ),
  })
  .meta({ id: 'TablesReplica' });

export type RelayTable = z.output<typeof relayTable>;
export type TablesReplica = z.output<typeof replicaAnswer>;
export type GiveTableRequest = z.input<typeof giveTableBody>;
export type GivenTable = z.output<typeof givenTable>;
