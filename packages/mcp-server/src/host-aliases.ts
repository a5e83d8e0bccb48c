// The other host family's alias metadata (OpenAI Apps SDK keys), kept in one place so every tool carries it.
import type { ListToolsResult, McpServer } from '@modelcontextprotocol/server';
import { typeArraysToAnyOf } from './portable-schema.js';

/** Key prefix the other host family reads; other hosts ignore these keys. */
export const ALIAS_PREFIX = 'openai/';

/** The one OAuth scope the service grants (doc1 "OAuth rules": `scope=svc`). */
export const SVC_SCOPE = 'svc';

/**
 * Per-tool security schemes as that family documents them (types `noauth` and `oauth2`). Every tool needs
 * a credential, so `noauth` is never listed; a pairing-token client sends its `svc_ct_` bearer on the HTTP
 * request and the server's 401 challenge names the resource metadata for both (ADR 0110).
 */
export const SECURITY_SCHEMES: readonly { type: 'oauth2'; scopes: readonly string[] }[] = Object.freeze([
  Object.freeze({ type: 'oauth2' as const, scopes: Object.freeze([SVC_SCOPE]) }),
]);

/** The thread tools' names. */
export type ThreadToolName =
  | 'svc_show'
  | 'svc_answers'
  | 'svc_say'
  | 'svc_threads'
  | 'svc_tap'
  | 'svc_tables'
  | 'svc_withdraw';

/** Status texts a host shows while a tool runs and after (that family caps them at 64 characters). */
export const INVOCATION_TEXTS: Readonly<Record<ThreadToolName, { invoking: string; invoked: string }>> = {
  svc_show: { invoking: 'Putting the screen on the phone', invoked: 'Screen shown' },
  svc_answers: { invoking: 'Waiting for the person', invoked: 'Checked for answers' },
  svc_say: { invoking: 'Sending the message', invoked: 'Message sent' },
  svc_threads: { invoking: 'Listing the threads', invoked: 'Threads listed' },
  svc_tap: { invoking: 'Recording the tap', invoked: 'Tap recorded' },
  svc_tables: { invoking: 'Working on the tables', invoked: 'Tables updated' },
  svc_withdraw: { invoking: 'Taking the screen back', invoked: 'Screen withdrawn' },
};

/**
 * The alias `_meta` keys of one tool: invocation texts and security schemes on every tool, the output
 * template on svc_show, private visibility and widget access on svc_tap.
 *
 * @example
 * ```ts
 * toolAliasMeta('svc_show', 'ui://svc/screen')['openai/outputTemplate']; // 'ui://svc/screen'
 * ```
 */
export function toolAliasMeta(name: ThreadToolName, screenUri: string): Record<string, unknown> {
  const texts = INVOCATION_TEXTS[name];
  return {
    'openai/toolInvocation/invoking': texts.invoking,
    'openai/toolInvocation/invoked': texts.invoked,
    securitySchemes: SECURITY_SCHEMES,
    ...(name === 'svc_show' ? { 'openai/outputTemplate': screenUri } : {}),
    ...(name === 'svc_tap' ? { 'openai/visibility': 'private', 'openai/widgetAccessible': true } : {}),
  };
}

/** The resource's alias keys: CSP (snake_case domains), description and border preference. */
export function resourceAliasMeta(options: {
  resourceDomains: string[];
  description: string;
  prefersBorder: boolean;
}): Record<string, unknown> {
  return {
    'openai/widgetCSP': { connect_domains: [], resource_domains: options.resourceDomains },
    'openai/widgetDescription': options.description,
    'openai/widgetPrefersBorder': options.prefersBorder,
  };
}

type ListHandler = (request: unknown, extra: unknown) => Promise<ListToolsResult> | ListToolsResult;

/**
 * Copies each tool's `_meta.securitySchemes` to the tool's top level in `tools/list`, where that family
 * reads it first, and lists the input and output schemas with `anyOf` in place of `type` arrays
 * ({@link typeArraysToAnyOf}: portable to every host). The SDK's `registerTool` drops unknown top-level
 * fields, so the list answer is wrapped. Call after every tool is registered.
 */
export function exposeSecuritySchemes(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, ListHandler> })
    ._requestHandlers;
  const original = handlers?.get('tools/list');
  if (!original) {
    // The SDK moved its handler table: fail at start-up rather than silently dropping the schemes.
    throw new Error('exposeSecuritySchemes: no tools/list handler found; register the tools first.');
  }
  server.server.setRequestHandler('tools/list', async (request, ctx) => {
    const listed = await original(request, ctx);
    return {
      ...listed,
      tools: listed.tools.map((t) => {
        const tool = {
          ...t,
          inputSchema: typeArraysToAnyOf(t.inputSchema),
          ...(t.outputSchema ? { outputSchema: typeArraysToAnyOf(t.outputSchema) } : {}),
        };
        const schemes = tool._meta?.securitySchemes;
        return schemes ? { ...tool, securitySchemes: schemes } : tool;
      }),
    };
  });
}
