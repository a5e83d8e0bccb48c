// `svc_tables` as a tool a host framework hands its model (doc3 adapters: "host plugin: tool svc_tables with
// argument lines"), bound to the turn's agent and thread, so no host writes the tool itself (ADR 0255).
import { guide } from '@screen-service/screen-lines';
import { HostApiError } from './errors.js';
import type { HostClient } from './host-client.js';

/** A tool in the shape most agent frameworks take: a name, a description, JSON Schema input, a runner. */
export interface HostTool {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the arguments. */
  inputSchema: Record<string, unknown>;
  /** Runs the tool; never throws for the service's refusals (they come back with `isError`). */
  run(args: unknown): Promise<HostToolResult>;
}

/** A tool's answer: `text` for the model (JSON), `data` for code, `isError` when nothing ran. */
export interface HostToolResult {
  text: string;
  data: unknown;
  isError?: boolean;
}

/** The model-facing description: what the tool does here, then the guide's own table words. */
export function hostTablesToolDescription(g: { text: string } = guide()): string {
  const at = g.text.indexOf('## Tables');
  const words = at >= 0 ? g.text.slice(at + '## Tables'.length).trim() : '';
  return [
    "Keep structured data for the person in tables on the service: the person owns them, you hold them, no other agent sees them. The person's app draws them wherever you show a query.",
    'lines: table lines, one per line (table create, put, query, table drop). Answers {ok, failed, results:[{cols, rows, count}], pending}.',
    'A refused line is in failed with the reason and writes nothing. put <table> <key> +delete and table drop put a Delete / Keep card in the thread: only the person deletes, and their tap comes in a later turn.',
    'Without lines: lists the tables you hold. Limits: 50 lines and 500 rows back per call, 60 calls a minute, 20 tables, 5,000 rows per table.',
    '',
    words,
  ].join('\n');
}

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    lines: {
      type: 'string',
      maxLength: 100_000,
      description: 'Table lines, one per line; omit to list the tables you hold.',
    },
  },
  additionalProperties: false,
} as const;

/**
 * `svc_tables` for one turn: the calls act as the turn's agent, in the turn's thread (a thread shared with
 * another person never touches the owner's tables, as on every adapter).
 *
 * @example
 * ```ts
 * const tool = hostTablesTool(client, { agent: turn.agent.id, session: turn.session });
 * const answer = await tool.run({ lines: 'query Runs as chart' });
 * ```
 */
export function hostTablesTool(
  client: Pick<HostClient, 'tables'>,
  bound: { agent: string; session?: string },
): HostTool {
  return {
    name: 'svc_tables',
    description: hostTablesToolDescription(),
    inputSchema: INPUT_SCHEMA,
    async run(args) {
      const input = (args ?? {}) as { lines?: unknown };
      if (typeof input !== 'object' || (input.lines !== undefined && typeof input.lines !== 'string')) {
        const message =
          'svc_tables takes {lines}: table lines as one string, one per line (or nothing, to list).';
        return { text: JSON.stringify({ error: 'invalid_input', message }), data: null, isError: true };
      }
      const session = bound.session === undefined ? {} : { session: bound.session };
      try {
        const data =
          input.lines === undefined || input.lines === ''
            ? await client.tables({ agent: bound.agent })
            : await client.tables({ agent: bound.agent, lines: input.lines, ...session });
        return { text: JSON.stringify(data), data };
      } catch (err) {
        if (!(err instanceof HostApiError)) throw err;
        // The service's refusal (over the call limit, rate limited, revoked) is for the model to read.
        const data = { error: err.code, message: err.message };
        return { text: JSON.stringify(data), data, isError: true };
      }
    },
  };
}
