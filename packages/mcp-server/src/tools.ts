// The five thread tools: zod input schemas, descriptions from the guide, each a thin call into ThreadOps.
import type { AuthInfo, CallToolResult, McpServer } from '@modelcontextprotocol/server';
import {
  type AnswersResult,
  MAX_LINES_CHARS,
  MAX_TEXT_CHARS,
  MAX_WAIT_SECONDS,
  type ThreadOps,
} from '@screen-service/core/threads';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import { z } from 'zod';
import { createTaskResult, declaresTasks } from './answer-tasks.js';
import { toToolError } from './errors.js';
import { acceptNoArguments, addFastTool, compileObjectCheck } from './fast-tools.js';
import type { GuideTexts } from './guide-texts.js';
import { toolAliasMeta } from './host-aliases.js';
import { answersText, showText, tappableTaps, tapText, threadsText } from './tool-results.js';

/** The MCP Apps resource svc_show names; its HTML comes from the web package (`screenApp` option). */
export const SCREEN_RESOURCE_URI = 'ui://svc/screen';
/** Longest `cursor` svc_answers takes: the ids of one result's answers (at most 50), encoded. */
const MAX_CURSOR_CHARS = 8192;

/** What the tools read of the SDK's request context: the verified principal and the abort signal. */
export interface ToolContext {
  http?: { authInfo?: AuthInfo | undefined } | undefined;
  /** `envelope`: a 2026-07-28 request's per-request `_meta` (the client's capabilities among them). */
  mcpReq: { signal: AbortSignal; envelope?: unknown };
}
type Extra = ToolContext;

export interface ToolDeps {
  ops: ThreadOps;
  texts: GuideTexts;
  /** Serve the Tasks extension: a call that declares it gets a task (ADR 0265). */
  tasks?: boolean;
}

/** The principal the HTTP layer verified; the handler passes it to the SDK in `authInfo.extra`. */
export function principalOf(ctx: Pick<ToolContext, 'http'>): ConnectionPrincipal {
  const p = ctx.http?.authInfo?.extra?.principal as ConnectionPrincipal | undefined;
  if (!p) throw new ServiceError('UNAUTHORIZED', 'No verified connection for this call.');
  return p;
}

const agent = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe('Agent handle (e.g. "coach" or "@coach") or id (agt_...); omit for the default agent.');

// A tap event's values: what the catalog's components report (a word, a number, a yes/no, a list, a form).
const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const eventValue = z.union([
  scalar,
  z.array(scalar),
  z.record(z.string(), z.union([scalar, z.array(scalar)])),
]);

// A screen's deadline (ADR 0260): the core checks it against the screen and says what is wrong.
// A default's values are tap values (typed, so the schema is portable: a bare `{}` draws Inspector warnings).
const deadlineSchema = z
  .union([
    z.string().describe('A duration: "90s", "10m", "2h", "1d"; the screen expires then.'),
    z.object({
      in: z.string().optional().describe('A duration from now: "90s", "10m", "2h", "1d".'),
      at: z.string().optional().describe('Or a time: ISO 8601 with a zone.'),
      default: z
        .union([z.literal('none'), z.record(z.string(), eventValue)])
        .optional()
        .describe(
          'Tap id to the answer chosen when nobody answers, e.g. {"lunch": "Soup"}; "none": it expires.',
        ),
      escalate: z
        .array(
          z.object({
            at: z.string().describe('"50%" of the time, or "-2m" before the end.'),
            do: z
              .enum(['remind', 'urgent', 'offer'])
              .describe(
                'Buzz the phone again (urgent: marked urgent), or offer the ask to holders of this shared agent (the first answer wins).',
              ),
            to: z
              .array(z.string())
              .max(10)
              .optional()
              .describe('offer: the holders, by user id (usr_...) or session key (<agent_id>~<user_id>).'),
          }),
        )
        .max(5)
        .optional(),
    }),
  ])
  .optional()
  .describe('When the screen decides without the person; absent: it waits as long as it takes.');

/** svc_answers' result: the text the model reads and the structured answers (a task's result is the same). */
export function answersResult(r: AnswersResult) {
  return result(answersText(r), r);
}

function result<T extends object>(text: string, structured: T) {
  return {
    content: [{ type: 'text' as const, text }],
    structuredContent: structured as Record<string, unknown>,
  };
}

async function run<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (err) {
    return toToolError(err);
  }
}

/**
 * Registers svc_show, svc_answers, svc_say, svc_threads and svc_tap on `server`.
 *
 * @example
 * ```ts
 * registerThreadTools(server, { ops, texts: buildGuideTexts() });
 * ```
 */
export function registerThreadTools(server: McpServer, deps: ToolDeps): void {
  const { ops, texts } = deps;
  registerAnswersTool(server, deps);

  const show = (
    args: { lines: string; text?: string; agent?: string; deadline?: unknown; urgent?: boolean },
    extra: Extra,
  ) =>
    run(async () => {
      const r = await ops.show(principalOf(extra), args as Parameters<ThreadOps['show']>[1]);
      // Only components a person can answer: `text hi` has an id but never taps (issue 28).
      const taps = tappableTaps(r.taps);
      return result(showText({ ...r, taps }), {
        screen_id: r.screen_id,
        message_id: r.message_id,
        agent: r.agent,
        tap_ids: taps.map((t) => t.id),
        taps,
        lines: r.lines,
        // The chat line drawn above the screen, on the phone and in the in-chat view.
        ...(args.text ? { text: args.text } : {}),
        // The parsed ops the core stored: the in-chat view draws them without carrying a parser (ADR 0074).
        ops: r.ops,
        ...(r.tables ? { tables: r.tables } : {}),
        ...(r.deadline ? { deadline: r.deadline } : {}),
      });
    });
  const say = (args: { text: string; agent?: string }, extra: Extra) =>
    run(async () => {
      const r = await ops.say(principalOf(extra), args);
      return result(`Sent to @${r.agent.handle}'s thread (${r.message_id}).`, r);
    });
  const threads = (extra: Extra) =>
    run(async () => {
      const r = await ops.threads(principalOf(extra));
      // One truth for "default": the agent a call without `agent` acts as, which is the first listed.
      const agents = r.agents.map((a, i) => ({ ...a, is_default: i === 0 }));
      return result(threadsText({ agents }), { agents });
    });

  // The same handlers without the SDK's zod passes when the arguments certainly pass the schemas below.
  const agentRule = { kind: 'string', min: 1, max: 64 } as const;
  const showCheck = compileObjectCheck({
    lines: { kind: 'string', min: 1, max: MAX_LINES_CHARS, required: true },
    text: { kind: 'string', min: 0, max: MAX_TEXT_CHARS },
    agent: agentRule,
  });
  addFastTool(server, 'svc_show', {
    // A call with a deadline (ADR 0260) or `urgent` (ADR 0258) takes the SDK's path: its zod schema checks them.
    accept: (args) =>
      typeof args === 'object' &&
      args !== null &&
      (Object.hasOwn(args, 'deadline') || Object.hasOwn(args, 'urgent'))
        ? null
        : showCheck(args),
    call: (args, extra) => show(args as Parameters<typeof show>[0], extra),
  });
  addFastTool(server, 'svc_say', {
    accept: compileObjectCheck({
      text: { kind: 'string', min: 1, max: MAX_TEXT_CHARS, required: true },
      agent: agentRule,
    }),
    call: (args, extra) => say(args as Parameters<typeof say>[0], extra),
  });
  addFastTool(server, 'svc_threads', { accept: acceptNoArguments, call: (_args, extra) => threads(extra) });

  server.registerTool(
    'svc_show',
    {
      title: 'Show a screen',
      description: texts.tools.svc_show,
      inputSchema: {
        lines: z
          .string()
          .min(1)
          .max(MAX_LINES_CHARS)
          .describe('Screen Lines: one component per line, no code fence.'),
        text: z.string().max(MAX_TEXT_CHARS).optional().describe('Optional chat line shown with the screen.'),
        agent,
        deadline: deadlineSchema,
        urgent: z
          .boolean()
          .optional()
          .describe(
            "Urgent ask: it may buzz during the person's quiet hours, when they allow urgent asks. Use sparingly.",
          ),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      _meta: {
        ui: { resourceUri: SCREEN_RESOURCE_URI },
        'ui/resourceUri': SCREEN_RESOURCE_URI,
        ...toolAliasMeta('svc_show', SCREEN_RESOURCE_URI),
      },
    },
    show,
  );

  server.registerTool(
    'svc_say',
    {
      title: 'Say a chat line',
      description: texts.tools.svc_say,
      inputSchema: {
        text: z.string().min(1).max(MAX_TEXT_CHARS).describe('The message.'),
        agent,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      _meta: toolAliasMeta('svc_say', SCREEN_RESOURCE_URI),
    },
    say,
  );

  server.registerTool(
    'svc_threads',
    {
      title: 'List threads',
      description: texts.tools.svc_threads,
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: toolAliasMeta('svc_threads', SCREEN_RESOURCE_URI),
    },
    (extra: Extra) => threads(extra),
  );

  server.registerTool(
    'svc_tap',
    {
      title: 'Record an in-chat tap',
      description: texts.tools.svc_tap,
      inputSchema: {
        screen_id: z.string().min(1).describe('The screen the tap belongs to.'),
        event: z
          .object({
            id: z.string().min(1).describe('Tap id of the component.'),
            value: eventValue.describe('What the person picked, typed or sent.'),
          })
          .catchall(eventValue)
          .describe('The view event: { id, value, ... }. Preset, line and echo are computed on the server.'),
        told_model: z.boolean().describe("True when the host took the tap line as the person's message."),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      _meta: {
        ui: { visibility: ['app'] },
        ...toolAliasMeta('svc_tap', SCREEN_RESOURCE_URI),
      },
    },
    (args, extra) =>
      run(async () => {
        const r = await ops.tap(principalOf(extra), args);
        return result(tapText(r), r);
      }),
  );
}

/** svc_answers: the long poll (resumable with a cursor, ADR 0274) or, declared by the client, a task (ADR 0265). */
function registerAnswersTool(server: McpServer, deps: ToolDeps): void {
  const { ops, texts } = deps;
  type AnswersArgs = { screen_id?: string; wait?: number; agent?: string; cursor?: string };
  const answers = (args: AnswersArgs, extra: Extra) =>
    run(async () => {
      // The request's signal aborts when the HTTP request closes; the core's own shutdown signal covers stopping.
      const r = await ops.answers(principalOf(extra), { ...args, signal: extra.mcpReq.signal });
      return answersResult(r);
    });
  // A 2026-07-28 call that declares the Tasks extension gets a task handle at once (stored first), not a wait.
  const answersOrTask = (args: AnswersArgs, extra: Extra) =>
    deps.tasks && declaresTasks(extra)
      ? run(async () => {
          const { screen_id, agent } = args;
          const input = { ...(screen_id ? { screen_id } : {}), ...(agent ? { agent } : {}) };
          // The SDK types a tool's result as complete or input_required; tools/call's resultType vocabulary is
          // open on the wire (its encode seam passes 'task' through), so the handle is typed as a result here.
          return createTaskResult(
            await ops.tasks.start(principalOf(extra), input),
          ) as unknown as CallToolResult;
        })
      : answers(args, extra);
  addFastTool(server, 'svc_answers', {
    accept: compileObjectCheck({
      screen_id: { kind: 'string', min: 1, max: Number.MAX_SAFE_INTEGER },
      wait: { kind: 'int', min: 0, max: MAX_WAIT_SECONDS },
      agent: { kind: 'string', min: 1, max: 64 },
      cursor: { kind: 'string', min: 0, max: MAX_CURSOR_CHARS },
    }),
    call: (args, extra) => answers(args as Parameters<typeof answers>[0], extra),
  });
  server.registerTool(
    'svc_answers',
    {
      title: 'Read answers',
      description: texts.tools.svc_answers,
      inputSchema: {
        screen_id: z.string().min(1).optional().describe('Only items after this screen (from svc_show).'),
        wait: z
          .number()
          .int()
          .min(0)
          .max(MAX_WAIT_SECONDS)
          .optional()
          .describe(`Seconds to wait for something to arrive, 0 to ${MAX_WAIT_SECONDS}; default 0.`),
        agent,
        cursor: z
          .string()
          .max(MAX_CURSOR_CHARS)
          .optional()
          .describe(
            'Resumable wait: "" first, then the previous result\'s cursor. Answers come again until acknowledged.',
          ),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      _meta: toolAliasMeta('svc_answers', SCREEN_RESOURCE_URI),
    },
    answersOrTask,
  );
}
