// svc_withdraw: the agent takes back a screen it showed (issue 44, ADR 0279); a thin call into the thread ops.
import type { McpServer } from '@modelcontextprotocol/server';
import type { ThreadOps } from '@screen-service/core/threads';
import { z } from 'zod';
import { toToolError } from './errors.js';
import { toolAliasMeta } from './host-aliases.js';
import { principalOf, SCREEN_RESOURCE_URI } from './tools.js';

/** The tool's description: when to call it and what the person sees. */
export const WITHDRAW_TOOL_DESCRIPTION = [
  'Take back a screen you showed with svc_show, when its question no longer needs an answer (you found out another way, or the work moved on).',
  'The phone then shows the screen as "Withdrawn" and takes no more taps on it; its deadline is cancelled and its notifications are replaced. A tap already sent stays in svc_answers.',
  'screen_id: the id svc_show returned. Withdrawing twice is harmless (already: true). A screen whose deadline already decided cannot be withdrawn.',
].join('\n');

// Built once: a 2026-07-28 call builds a fresh server per request (ADR 0263).
const WITHDRAW_INPUT = z.object({
  screen_id: z.string().min(1).max(64).describe('The screen to take back (from svc_show).'),
});

/**
 * Registers `svc_withdraw` on the server.
 *
 * @example
 * ```ts
 * registerWithdrawTool(server, { ops: core.threadOps });
 * ```
 */
export function registerWithdrawTool(server: McpServer, deps: { ops: Pick<ThreadOps, 'withdraw'> }): void {
  server.registerTool(
    'svc_withdraw',
    {
      title: 'Withdraw a screen',
      description: WITHDRAW_TOOL_DESCRIPTION,
      inputSchema: WITHDRAW_INPUT,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      _meta: toolAliasMeta('svc_withdraw', SCREEN_RESOURCE_URI),
    },
    async (args, extra) => {
      try {
        const r = await deps.ops.withdraw(principalOf(extra), args);
        const text = r.already
          ? `Screen ${r.screen_id} was already withdrawn (${r.at}).`
          : `Withdrew screen ${r.screen_id}: the phone shows it as withdrawn and takes no more taps on it.`;
        return { content: [{ type: 'text' as const, text }], structuredContent: { ...r } };
      } catch (err) {
        return toToolError(err);
      }
    },
  );
}
