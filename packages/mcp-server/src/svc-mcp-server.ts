// Builds the McpServer: instructions, the thread tools, the svc_guide prompt, svc://guide and the optional screen app.
import {
  McpServer,
  ResourceNotFoundError,
  type ResourceTemplate,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import type { Tables } from '@screen-service/agent-tables';
import type { ThreadOps } from '@screen-service/core/threads';
import { registerTaskMethods } from './answer-tasks.js';
import { buildGuideTexts, type GuideTexts, SPEC_LABEL } from './guide-texts.js';
import { exposeSecuritySchemes, resourceAliasMeta } from './host-aliases.js';
import { prepareScreenHtml } from './screen-html.js';
import { registerTablesTool } from './tables-tool.js';
import { answersResult, registerThreadTools, SCREEN_RESOURCE_URI } from './tools.js';
import { registerWithdrawTool } from './withdraw-tool.js';

/** MIME type of an MCP Apps view. */
export const SCREEN_APP_MIME = 'text/html;profile=mcp-app';
export const GUIDE_RESOURCE_URI = 'svc://guide';

/** The in-chat renderer (one HTML file) the web package builds; registered as `ui://svc/screen`. */
export interface ScreenApp {
  html: string;
  /** Origins the view may load images from (the service's own storage); the CDN's origin is added. */
  resourceDomains?: string[];
  /**
   * The image-generation CDN as a URL template with `{prompt}` (the URL-encoded prompt), e.g.
   * `https://image.example/prompt/{prompt}`: `image prompt="..."` draws from it; without it, a placeholder.
   */
  imageCdn?: string;
  description?: string;
  prefersBorder?: boolean;
}

export interface SvcMcpServerOptions {
  ops: ThreadOps;
  /** Serves `svc_tables` (relay tables) when given. */
  tables?: Pick<Tables, 'call'>;
  /** Server version in the initialize answer; default the package version. */
  version?: string;
  /** Default: built from @screen-service/screen-lines `guide()`. */
  texts?: GuideTexts;
  /** Without it `ui://svc/screen` is not served (svc_show still names it; hosts fall back to text). */
  screenApp?: ScreenApp;
  /**
   * Registers more tools, resources or prompts after the service's own (tests register the conformance
   * suite's fixtures here; the product registers none).
   */
  register?: (server: McpServer) => void;
  /**
   * Integrity check of an echoed `requestState` (2026-07-28 multi round-trip requests), e.g. the `verify` of
   * the SDK's `createRequestStateCodec`: state that fails it is refused with -32602 before any handler runs.
   * Needed only by tools registered through `register` that mint state; the service's own tools mint none.
   */
  requestState?: ServerOptions['requestState'];
  /** Serve the Tasks extension (2026-07-28 servers): svc_answers as a task, tasks/get and /cancel (ADR 0265). */
  tasks?: boolean;
}

/**
 * The Screen Service MCP server, ready to connect to a transport.
 *
 * @example
 * ```ts
 * const server = createSvcMcpServer({ ops: createThreadOps({ store, notifier }) });
 * const handler = createMcpHandler(() => createSvcMcpServer({ ops })); // the SDK's, per request
 * ```
 */
export function createSvcMcpServer(options: SvcMcpServerOptions): McpServer {
  const texts = options.texts ?? buildGuideTexts();
  const server = new McpServer(
    { name: 'screen-service', title: `Screen Service (${SPEC_LABEL})`, version: options.version ?? '0.1.0' },
    {
      instructions: texts.instructions,
      // logging: clients may set a level; this server sends no log messages (stateless, JSON answers only).
      capabilities: { tools: {}, prompts: {}, resources: {}, logging: {} },
      ...(options.requestState ? { requestState: options.requestState } : {}),
    },
  );
  registerThreadTools(server, { ops: options.ops, texts, ...(options.tasks ? { tasks: true } : {}) });
  if (options.tasks) registerTaskMethods(server, options.ops, answersResult);
  registerWithdrawTool(server, { ops: options.ops });
  if (options.tables) registerTablesTool(server, { tables: options.tables });

  server.registerPrompt(
    'svc_guide',
    {
      title: 'Screen Service guide',
      description: 'The full Screen Lines guide, with how to use svc_show and svc_answers.',
    },
    () => ({
      description: `Screen Lines guide ${texts.version}`,
      messages: [{ role: 'user', content: { type: 'text', text: texts.prompt } }],
    }),
  );

  server.registerResource(
    'svc_guide',
    GUIDE_RESOURCE_URI,
    { title: 'Screen Lines guide', description: 'The full Screen Lines guide.', mimeType: 'text/markdown' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: texts.resource }] }),
  );

  if (options.screenApp) registerScreenApp(server, options.screenApp);
  options.register?.(server);
  exposeSecuritySchemes(server);
  answerCompletions(server);
  acceptSubscriptions(server);
  return server;
}

/**
 * `completion/complete` is answered (capability `completions`): the SDK's own handler, which completes
 * arguments of prompts and resource templates and answers an empty list for the guide prompt, which takes
 * none. The SDK installs it only when a completable argument is registered, so it is installed here.
 */
function answerCompletions(server: McpServer): void {
  (server as unknown as { setCompletionRequestHandler(): void }).setCompletionRequestHandler();
}

type Registered = {
  _registeredResources: Record<string, unknown>;
  _registeredResourceTemplates: Record<string, { resourceTemplate: ResourceTemplate }>;
};

/**
 * `resources/subscribe` and `/unsubscribe` accept a resource this server serves (capability
 * `resources.subscribe`), and refuse any other URI with the SDK's ResourceNotFoundError (-32602, `data.uri`). The resources are fixed for the life of a
 * server (the guide, the renderer), so no update is ever due to a subscriber; this stateless server keeps no
 * subscription list and has no stream to send one on.
 */
function acceptSubscriptions(server: McpServer): void {
  server.server.registerCapabilities({ resources: { subscribe: true } });
  const served = (uri: string) => {
    const r = server as unknown as Registered;
    if (r._registeredResources[uri]) return true;
    return Object.values(r._registeredResourceTemplates).some((t) =>
      t.resourceTemplate.uriTemplate.match(uri),
    );
  };
  const handle = ({ params }: { params: { uri: string } }) => {
    if (!served(params.uri)) {
      throw new ResourceNotFoundError(
        params.uri,
        `Resource ${params.uri} not found: subscribe to one resources/list names.`,
      );
    }
    return {};
  };
  server.server.setRequestHandler('resources/subscribe', handle);
  server.server.setRequestHandler('resources/unsubscribe', handle);
}

function registerScreenApp(server: McpServer, app: ScreenApp): void {
  const { html, resourceDomains } = prepareScreenHtml(app);
  const description = app.description ?? 'Draws a Screen Lines screen.';
  const prefersBorder = app.prefersBorder ?? false;
  const meta = {
    ui: { csp: { connectDomains: [], resourceDomains }, prefersBorder },
    ...resourceAliasMeta({ resourceDomains, description, prefersBorder }),
  };
  server.registerResource(
    'svc_screen',
    SCREEN_RESOURCE_URI,
    { title: 'Screen', description, mimeType: SCREEN_APP_MIME, _meta: meta },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: SCREEN_APP_MIME, text: html, _meta: meta }] }),
  );
}
