// The conformance suite's multi round-trip (input_required) fixtures and server-stateless diagnostic tools,
// registered only in tests: each asks the client through the 2.x SDK's `inputRequired` and completes on retry.
import { randomBytes } from 'node:crypto';
import {
  acceptedContent,
  createRequestStateCodec,
  type InputRequest,
  inputRequired,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** What a fixture seals into its `requestState`: the flow it belongs to and the round it reached. */
interface FlowState {
  flow: string;
  round: number;
  name?: string;
}

/**
 * HMAC-signed `requestState` (the SDK's codec): the key lives in this test process only, which serves every
 * round. Pass `conformanceRequestState.verify` as the server's `requestState.verify` so tampered state is
 * refused with -32602 before a handler runs.
 */
export const conformanceRequestState = createRequestStateCodec<FlowState>({ key: randomBytes(32) });

const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

function askName(message: string): InputRequest {
  return inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
}

function ask(message: string, property: string, type: 'string' | 'boolean'): InputRequest {
  return inputRequired.elicit({
    message,
    requestedSchema: {
      type: 'object',
      properties: { [property]: type === 'string' ? { type: 'string' } : { type: 'boolean' } },
      required: [property],
    },
  });
}

function askModel(text: string, maxTokens: number): InputRequest {
  return inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text } }],
    maxTokens,
  });
}

/** The text of a sampling answer (`CreateMessageResult`), or undefined when the entry is not one. */
function sampledText(responses: Record<string, unknown> | undefined, key: string): string | undefined {
  const entry = responses?.[key] as { content?: { type?: unknown; text?: unknown } } | undefined;
  return entry?.content?.type === 'text' && typeof entry.content.text === 'string'
    ? entry.content.text
    : undefined;
}

/** The root URIs of a `roots/list` answer, or undefined when the entry is not one. */
function rootUris(responses: Record<string, unknown> | undefined, key: string): string[] | undefined {
  const roots = (responses?.[key] as { roots?: unknown } | undefined)?.roots;
  if (!Array.isArray(roots)) return undefined;
  return roots.flatMap((r) => (typeof r?.uri === 'string' ? [r.uri as string] : []));
}

function stringField(content: Record<string, unknown> | undefined, field: string): string | undefined {
  const v = content?.[field];
  return typeof v === 'string' ? v : undefined;
}

function text(t: string) {
  return { content: [{ type: 'text' as const, text: t }] };
}

/** The state a retry echoed (already verified by the server's hook), when it belongs to `flow`. */
function echoed(ctx: ServerContext, flow: string): FlowState | undefined {
  const state = ctx.mcpReq.requestState<FlowState>();
  return state && typeof state === 'object' && state.flow === flow ? state : undefined;
}

/** Registers the input_required fixtures (tools and a prompt) and the server-stateless diagnostic tools. */
export function registerInputFixtures(server: McpServer): void {
  registerSingleInputTools(server);
  registerStatefulTools(server);
  registerCapabilityTools(server);
  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'Fixture: asks for context before it builds the prompt.' },
    (ctx) => {
      const context = stringField(acceptedContent(ctx.mcpReq.inputResponses, 'user_context'), 'context');
      if (context === undefined) {
        return inputRequired({
          inputRequests: { user_context: ask('What context should the prompt use?', 'context', 'string') },
        });
      }
      return {
        messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }],
      };
    },
  );
}

function registerSingleInputTools(server: McpServer): void {
  server.registerTool(
    'test_input_required_result_elicitation',
    { description: 'Fixture: asks the user for a name.' },
    (ctx) => {
      // Missing, declined or malformed answers (a wrong key, a number) are asked again, never completed.
      const name = stringField(acceptedContent(ctx.mcpReq.inputResponses, 'user_name'), 'name');
      if (name === undefined) {
        return inputRequired({ inputRequests: { user_name: askName('What is your name?') } });
      }
      return text(`Hello, ${name}!`);
    },
  );
  server.registerTool(
    'test_input_required_result_sampling',
    { description: 'Fixture: asks the client model a question.' },
    (ctx) => {
      const answer = sampledText(ctx.mcpReq.inputResponses, 'capital_question');
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { capital_question: askModel('What is the capital of France?', 100) },
        });
      }
      return text(`The model answered: ${answer}`);
    },
  );
  server.registerTool(
    'test_input_required_result_list_roots',
    { description: "Fixture: asks for the client's roots." },
    (ctx) => {
      const roots = rootUris(ctx.mcpReq.inputResponses, 'client_roots');
      if (roots === undefined) {
        return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
      }
      return text(`Client roots: ${roots.join(', ') || '(none)'}`);
    },
  );
}

function registerStatefulTools(server: McpServer): void {
  for (const flow of ['request_state', 'tampered_state']) {
    server.registerTool(
      `test_input_required_result_${flow}`,
      { description: 'Fixture: asks for a confirmation and carries signed state.' },
      async (ctx) => {
        const ok = acceptedContent(ctx.mcpReq.inputResponses, 'confirm')?.ok;
        if (echoed(ctx, flow)?.round === 1 && typeof ok === 'boolean') return text(`state-ok (ok=${ok})`);
        return inputRequired({
          inputRequests: { confirm: ask('Please confirm', 'ok', 'boolean') },
          requestState: await conformanceRequestState.mint({ flow, round: 1 }),
        });
      },
    );
  }
  server.registerTool(
    'test_input_required_result_multiple_inputs',
    { description: 'Fixture: asks for a name, a model greeting and the roots at once.' },
    async (ctx) => {
      const responses = ctx.mcpReq.inputResponses;
      const name = stringField(acceptedContent(responses, 'user_name'), 'name');
      const greeting = sampledText(responses, 'greeting');
      const roots = rootUris(responses, 'client_roots');
      if (echoed(ctx, 'multiple_inputs') && name !== undefined && greeting !== undefined && roots) {
        return text(`${greeting} ${name} (roots: ${roots.join(', ') || 'none'})`);
      }
      return inputRequired({
        inputRequests: {
          user_name: askName('What is your name?'),
          greeting: askModel('Generate a greeting', 50),
          client_roots: inputRequired.listRoots(),
        },
        requestState: await conformanceRequestState.mint({ flow: 'multiple_inputs', round: 1 }),
      });
    },
  );
  server.registerTool(
    'test_input_required_result_multi_round',
    { description: 'Fixture: asks for a name, then for a colour, carrying the name in signed state.' },
    async (ctx) => {
      const state = echoed(ctx, 'multi_round');
      const responses = ctx.mcpReq.inputResponses;
      const color = stringField(acceptedContent(responses, 'step2'), 'color');
      if (state?.round === 2 && color !== undefined) return text(`${state.name} likes ${color}.`);
      const name = stringField(acceptedContent(responses, 'step1'), 'name');
      if (state?.round === 1 && name !== undefined) {
        return inputRequired({
          inputRequests: { step2: ask('Step 2: What is your favorite color?', 'color', 'string') },
          requestState: await conformanceRequestState.mint({ flow: 'multi_round', round: 2, name }),
        });
      }
      return inputRequired({
        inputRequests: { step1: askName('Step 1: What is your name?') },
        requestState: await conformanceRequestState.mint({ flow: 'multi_round', round: 1 }),
      });
    },
  );
}

/** Capability-aware tools: each asks only for what the request's declared client capabilities allow. */
function registerCapabilityTools(server: McpServer): void {
  server.registerTool(
    'test_input_required_result_capabilities',
    { description: 'Fixture: asks only through the capabilities the client declared.' },
    (ctx) => {
      const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
      const declared = (envelope[CLIENT_CAPABILITIES] ?? {}) as Record<string, unknown>;
      const responses = ctx.mcpReq.inputResponses;
      const wanted: Record<string, InputRequest> = {};
      if (declared.elicitation && !acceptedContent(responses, 'user_name')) {
        wanted.user_name = askName('What is your name?');
      }
      if (declared.sampling && sampledText(responses, 'capital_question') === undefined) {
        wanted.capital_question = askModel('What is the capital of France?', 100);
      }
      if (Object.keys(wanted).length > 0) return inputRequired({ inputRequests: wanted });
      return text(`Asked through: ${Object.keys(declared).join(', ') || 'nothing'}`);
    },
  );
  // server-stateless: sampling regardless of what the client declared, so an undeclared capability is
  // refused by the SDK (-32021, HTTP 400) before anything is asked.
  server.registerTool('test_missing_capability', { description: 'Diagnostic: needs sampling.' }, (ctx) => {
    const answer = sampledText(ctx.mcpReq.inputResponses, 'question');
    if (answer === undefined) return inputRequired({ inputRequests: { question: askModel('Say hi', 20) } });
    return text(`The model said: ${answer}`);
  });
  // server-stateless: the elicitation rides the result (input_required), never a request on the stream.
  server.registerTool(
    'test_streaming_elicitation',
    { description: 'Diagnostic: asks for a name through the result.' },
    (ctx) => {
      const name = stringField(acceptedContent(ctx.mcpReq.inputResponses, 'user_name'), 'name');
      if (name === undefined) return inputRequired({ inputRequests: { user_name: askName('Your name?') } });
      return text(`Hello, ${name}!`);
    },
  );
  // server-stateless: logs through the SDK, which sends nothing unless the request asked for a log level.
  server.registerTool('test_logging_tool', { description: 'Diagnostic: logs one message.' }, async (ctx) => {
    await ctx.mcpReq.log('info', 'test_logging_tool ran');
    return text('Logged one message at info.');
  });
}
