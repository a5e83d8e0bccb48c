// The MCP Tasks extension's wire for svc_answers (ADR 0265): the capability both sides declare, the task
// handle a call returns, and tasks/get, tasks/cancel, tasks/update. The rules are the core's (`ops.tasks`).
import {
  type McpServer,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import type { AnswersResult, AnswerTaskView, ThreadOps } from '@screen-service/core/threads';
import { asServiceError } from '@screen-service/http-kit';
import { z } from 'zod';
import { principalOf, type ToolContext } from './tools.js';

/** The extension's id: the key of `extensions` in the client's and the server's capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Where a 2026-07-28 request carries the client's capabilities (`params._meta`). */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * True when the request declares the Tasks extension in its per-request client capabilities (2026-07-28;
 * the SDK lifts the envelope into `mcpReq.envelope`). 2025 clients have no such declaration for this
 * extension: they keep the long poll.
 */
export function declaresTasks(ctx: { mcpReq: { envelope?: unknown } }): boolean {
  const envelope = ctx.mcpReq.envelope;
  const caps = isRecord(envelope) ? envelope[CLIENT_CAPABILITIES] : undefined;
  const extensions = isRecord(caps) ? caps.extensions : undefined;
  return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION]);
}

/** The extension's Task fields for `view` (times as ISO 8601, the server's poll interval and TTL). */
function taskFields(view: AnswerTaskView) {
  return {
    taskId: view.id,
    status: view.status,
    createdAt: new Date(view.createdAt).toISOString(),
    lastUpdatedAt: new Date(view.updatedAt).toISOString(),
    ttlMs: view.ttlMs,
    pollIntervalMs: view.pollMs,
  };
}

/** The CreateTaskResult a task-augmented `tools/call` answers at once. */
export function createTaskResult(view: AnswerTaskView) {
  return { resultType: 'task' as const, ...taskFields(view) };
}

/** The protocol error for a rules' refusal of a task request: an unknown task is invalid params. */
function taskError(thrown: unknown): never {
  const err = asServiceError(thrown);
  if (!err) throw thrown;
  const code = err.code === 'NOT_FOUND' ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InvalidRequest;
  throw new ProtocolError(code, err.message, { code: err.code });
}

const taskParams = z.object({ taskId: z.string().min(1) });
// Built once, like the tools' input schemas (a 2026-07-28 call builds a server per request).
const looseTaskParams = taskParams.loose();

/**
 * Advertises the extension and serves its methods on `server` (the 2026-07-28 servers only). `toResult` is
 * svc_answers' own result builder, so a completed task carries exactly what the call would have given.
 */
export function registerTaskMethods(
  server: McpServer,
  ops: ThreadOps,
  toResult: (r: AnswersResult) => Record<string, unknown>,
): void {
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  const detailed = (view: AnswerTaskView) => ({
    ...taskFields(view),
    ...(view.result ? { result: { resultType: 'complete', ...toResult(view.result) } } : {}),
  });
  const serve = (fn: (ctx: ToolContext) => Promise<AnswerTaskView>) => async (ctx: ToolContext) => {
    // The extension's methods are for requests that declare it (SEP-2663): -32021 naming what is missing.
    if (!declaresTasks(ctx)) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        `Declare the ${TASKS_EXTENSION} extension in this request's client capabilities to use tasks.`,
      );
    }
    try {
      return await fn(ctx);
    } catch (err) {
      taskError(err);
    }
  };
  server.server.setRequestHandler('tasks/get', { params: taskParams }, async (params, ctx) =>
    detailed(await serve((c) => ops.tasks.get(principalOf(c), params.taskId))(ctx)),
  );
  server.server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params, ctx) => {
    await serve((c) => ops.tasks.cancel(principalOf(c), params.taskId))(ctx);
    return {};
  });
  server.server.setRequestHandler('tasks/update', { params: looseTaskParams }, async (params, ctx) => {
    await serve((c) => ops.tasks.get(principalOf(c), params.taskId))(ctx);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Task ${params.taskId} asks for no input (its status is never input_required): poll it with tasks/get.`,
    );
  });
}
