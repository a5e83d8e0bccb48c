// The tables call as an OpenAPI 3.1 path item, for the service's /openapi.json (statuses and bodies are ours).
import { MOUNTS } from '@screen-service/registry/mounts';

const error = {
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error', 'message'],
        properties: { error: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } },
      },
    },
  },
};
const refused = {
  type: 'object',
  description: "a refused line (doc3 event 1) with the engine's stable code",
  required: ['op', 'table', 'key', 'error', 'line'],
  properties: {
    op: { const: 'row' },
    table: { type: 'string' },
    key: { type: 'string' },
    error: { type: 'string' },
    line: { type: 'string' },
    code: { type: 'string' },
  },
};
const pending = {
  type: 'array',
  description: 'deletes waiting for the person: each put a Delete / Keep card in the thread',
  items: { type: 'object', properties: { id: { type: 'string' }, prompt: { type: 'string' } } },
};
const cell = { type: ['string', 'number', 'boolean', 'null'] };

/**
 * The path item of `POST {connect_url}/tables`, and the security scheme it names (`connectionToken`).
 * {@link TABLES_CALL_OPENAPI_PART} is the same as a part to merge into another OpenAPI document.
 *
 * @example
 * ```ts
 * doc.paths[`${MOUNTS.connect}/tables`] = TABLES_CALL_OPENAPI.path;
 * doc.components.securitySchemes.connectionToken = TABLES_CALL_OPENAPI.securityScheme;
 * ```
 */
export const TABLES_CALL_OPENAPI = Object.freeze({
  securityScheme: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'connection token (svc_ct_...) or OAuth access token (svc_at_...)',
  },
  path: {
    post: {
      summary:
        "The tables call (doc3): an agent's table lines, a whole reply, or nothing (list what it holds)",
      operationId: 'postTablesCall',
      security: [{ connectionToken: [] }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                agent: { type: 'string', description: 'agent handle or id; default: the connection default' },
                lines: {
                  type: 'string',
                  maxLength: 100000,
                  description: 'table lines, one per line (at most 50)',
                },
                reply: { type: 'string', maxLength: 100000, description: "the agent's whole reply" },
                session: {
                  type: 'string',
                  description:
                    "the thread the lines come from (a turn's session): `<agent_id>`, or `<agent_id>~<user_id>` for a thread shared with another person, which never touches the owner's tables (lines refused, a reply's table lines told as refused)",
                },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description:
            'lines: {ok, failed, results, pending}; reply: {text, events, pending} or a read {read: true, note}; neither: {held, tables, pending}',
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  {
                    title: 'LinesAnswer',
                    type: 'object',
                    properties: {
                      ok: { type: 'array', items: { type: 'object' } },
                      failed: { type: 'array', items: refused },
                      results: {
                        type: 'array',
                        items: {
                          type: 'object',
                          properties: {
                            id: { type: 'string' },
                            table: { type: 'string' },
                            cols: { type: 'array', items: { type: 'string' } },
                            rows: { type: 'array', items: { type: 'array', items: cell } },
                            count: { type: 'integer' },
                            error: { type: 'string', description: 'why the query could not run' },
                          },
                        },
                      },
                      pending,
                    },
                  },
                  {
                    title: 'ReplyText',
                    type: 'object',
                    properties: {
                      text: { type: 'string', description: 'save this: table lines removed, queries drawn' },
                      events: {
                        type: 'array',
                        items: refused,
                        description: 'tell the agent once, after the reply',
                      },
                      pending,
                    },
                  },
                  {
                    title: 'ReplyRead',
                    type: 'object',
                    properties: { read: { const: true }, note: { type: 'string' } },
                  },
                  {
                    title: 'Holdings',
                    type: 'object',
                    properties: {
                      held: { type: 'array', items: { type: 'object' } },
                      tables: { type: 'string' },
                      pending,
                    },
                  },
                ],
              },
            },
          },
        },
        '400': { description: 'bad body (invalid_input, invalid_json)', ...error },
        '401': { description: 'missing or unknown token', ...error },
        '403': { description: 'suspended', ...error },
        '404': { description: 'agent_not_found: the token does not serve that agent', ...error },
        '409': { description: 'connector_revoked', ...error },
        '413': { description: 'body_too_large', ...error },
        '422': { description: 'limit_exceeded: over 50 lines in one call; nothing written', ...error },
        '429': { description: 'rate_limited: 60 calls per agent per minute; see Retry-After', ...error },
      },
    },
  },
});

/** The tables call as paths and security schemes keyed as in an OpenAPI document (at the connect mount). */
export const TABLES_CALL_OPENAPI_PART = Object.freeze({
  paths: { [`${MOUNTS.connect}/tables`]: TABLES_CALL_OPENAPI.path },
  securitySchemes: { connectionToken: TABLES_CALL_OPENAPI.securityScheme },
});
