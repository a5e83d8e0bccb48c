// svc_tables: the tables call as a tool (doc3 "Tables call", adapter "tool server"); a thin call into core.tables.
import type { McpServer } from '@modelcontextprotocol/server';
import { MAX_TABLES_CALL_CHARS, type Tables } from '@screen-service/agent-tables';
import { guide } from '@screen-service/screen-lines';
import { z } from 'zod';
import { toToolError } from './errors.js';
import { TABLES_MODEL } from './guide-texts.js';
import { toolAliasMeta } from './host-aliases.js';
import { principalOf, SCREEN_RESOURCE_URI } from './tools.js';

/** The tool's description: what it does, then the guide's own table words (one source of the rules). */
export function tablesToolDescription(g: { text: string } = guide()): string {
  const at = g.text.indexOf('## Tables');
  const words = at >= 0 ? g.text.slice(at + '## Tables'.length).trim() : '';
  return [
    'Keep structured data for the person in tables on the service: the person owns them, this agent holds them, no other agent sees them.',
    TABLES_MODEL,
    'lines: table lines, one per line (table create, put, query, table drop). Answers {ok, failed, results:[{cols, rows, count}], pending}: a query here returns rows to you; to draw them for the person, put the query line in a screen with svc_show (as in the example below).',
    'A refused line is in failed with the reason and writes nothing. put <table> <key> +delete and table drop put a Delete / Keep card in the thread: only the person deletes, and their tap comes back through svc_answers.',
    'Without lines: lists the tables this agent holds. Limits: 50 lines and 500 rows back per call, 60 calls a minute, 20 tables per agent, 5,000 rows per table.',
    'agent: the agent handle to act as; omit it for the default agent.',
    '',
    words,
  ].join('\n');
}

/** The description from the bundled guide, made once (a 2026-07-28 call builds a server per request). */
let description: string | undefined;
const defaultDescription = () => {
  description ??= tablesToolDescription();
  return description;
};

// Built once: a 2026-07-28 call builds a fresh server per request (ADR 0263).
const TABLES_INPUT = z.object({
  lines: z
    .string()
    .max(MAX_TABLES_CALL_CHARS)
    .optional()
    .describe('Table lines, one per line; omit to list the tables this agent holds.'),
  agent: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('Agent handle (e.g. "coach") or id (agt_...); omit for the default agent.'),
});

/**
 * Registers `svc_tables` on the server.
 *
 * @example
 * ```ts
 * registerTablesTool(server, { tables: core.tables });
 * ```
 */
export function registerTablesTool(server: McpServer, deps: { tables: Pick<Tables, 'call'> }): void {
  server.registerTool(
    'svc_tables',
    {
      title: 'Tables',
      description: defaultDescription(),
      inputSchema: TABLES_INPUT,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      _meta: toolAliasMeta('svc_tables', SCREEN_RESOURCE_URI),
    },
    async (args, extra) => {
      try {
        const r = await deps.tables.call(principalOf(extra), args);
        return {
          content: [{ type: 'text' as const, text: JSON.stringify(r) }],
          structuredContent: r as unknown as Record<string, unknown>,
        };
      } catch (err) {
        return toToolError(err);
      }
    },
  );
}
