// The OpenAPI 3.1 document of the person's API, generated from the route table's zod schemas.
import { z } from 'zod';
import { API_PREFIX, type RouteDef } from './route.js';
import { errorBody } from './schemas.js';

type Json = Record<string, unknown>;

/**
 * Builds the document; schemas with a `.meta({ id })` land in `components.schemas` and are referenced.
 *
 * @example
 * ```ts
 * app.get('/openapi.json', (_req, res) => res.json(buildOpenApi(routes, { baseUrl, version })));
 * ```
 */
export function buildOpenApi(
  routes: readonly RouteDef[],
  o: {
    baseUrl: string;
    version: string;
    /** Operations of other adapters served beside this API (e.g. the tables call), merged in as given. */
    extra?: { paths?: Record<string, Json>; securitySchemes?: Record<string, Json> };
  },
): Json {
  const components: Record<string, Json> = {};
  // Schemas with `.meta({ id })` come out under $defs; they move to components.schemas and refs follow.
  const collect = (schema: z.ZodType, io: 'input' | 'output'): Json => {
    const raw = JSON.stringify(
      z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }),
    );
    const out = JSON.parse(raw.replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
    for (const [k, v] of Object.entries((out.$defs ?? {}) as Record<string, Json>)) components[k] = v;
    delete out.$defs;
    delete out.$schema;
    return out;
  };

  const error = { content: { 'application/json': { schema: collect(errorBody, 'output') } } };
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) {
    const path = API_PREFIX + r.path.replace(/:(\w+)/g, '{$1}');
    const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const queryParams = r.query
      ? Object.entries((collect(r.query, 'input').properties ?? {}) as Record<string, Json>).map(
          ([name, schema]) => ({
            name,
            in: 'query',
            required: ((collect(r.query!, 'input').required ?? []) as string[]).includes(name),
            schema,
          }),
        )
      : [];
    const headerParams = Object.entries(r.headers ?? {}).map(([name, h]) => ({
      name,
      in: 'header',
      required: false,
      description: h.description,
      schema: { type: 'string', pattern: h.pattern },
    }));
    const conflicts = Object.values(r.headers ?? {}).flatMap((h) => (h.conflict ? [h.conflict] : []));
    const status = String(r.status ?? (r.response ? 200 : 204));
    const ok: Json = { description: r.summary };
    if (r.raw?.response) ok.content = { [r.raw.response]: { schema: { type: 'string', format: 'binary' } } };
    else if (r.response) ok.content = { 'application/json': { schema: collect(r.response, 'output') } };
    const op: Json = {
      summary: r.summary,
      operationId: `${r.method}${r.path.replace(/[/:](\w)/g, (_m, c: string) => c.toUpperCase()).replace(/\W/g, '')}`,
      parameters: [...params, ...queryParams, ...headerParams],
      responses: {
        [status]: ok,
        '400': { description: 'bad input', ...error },
        ...(r.auth === 'user' ? { '401': { description: 'sign in first', ...error } } : {}),
        '404': { description: 'not found (or not yours)', ...error },
        ...(conflicts.length > 0 ? { '409': { description: conflicts.join('; '), ...error } } : {}),
        ...(r.body || r.raw?.request ? { '413': { description: 'body too large', ...error } } : {}),
        '429': { description: 'too many attempts; wait as the message says', ...error },
      },
    };
    if (r.auth === 'user') op.security = [{ appToken: [] }];
    if (r.raw?.request) {
      op.requestBody = {
        required: true,
        content: { [r.raw.request]: { schema: { type: 'string', format: 'binary' } } },
      };
    } else if (r.body) {
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: collect(r.body, 'input') } },
      };
    }
    paths[path] ??= {};
    paths[path]![r.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: "Screen Service: the person's API",
      version: o.version,
      description:
        'What the phone app uses: accounts, agents, pairing codes, threads, photos, connections, live stream.',
    },
    servers: [{ url: o.baseUrl }],
    paths: { ...paths, ...o.extra?.paths },
    components: {
      schemas: components,
      securitySchemes: {
        appToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (role svc_user, 15 minutes)' },
        ...o.extra?.securitySchemes,
      },
    },
  };
}
