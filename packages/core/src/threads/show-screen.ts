// svc_show's write (and a host's screen reply): the lines and the deadline checked, the table lines run, the
// screen written (one guarded statement when it can be, ADR 0291) and its theme lines saved to the agent.

import type { ScreenWrites } from '@screen-service/agent-tables';
import { toAgentRef } from '@screen-service/registry/agents';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord } from '@screen-service/registry/model';
import type { ScreenLinesResult } from '@screen-service/screen-rules';
import { optionalText, planDeadline, requireText, tapsOf } from '@screen-service/screen-rules';
import { cleanLook, mergeLook } from '@screen-service/theme';
import { checkOfferHolders } from './deadline-offers.js';
import { type keptServedAgents, type RowGuard, writeGuarded } from './host-rows.js';
import type { createThreadCore, ThreadDeps } from './thread-core.js';
import {
  MAX_LINES_CHARS,
  MAX_TEXT_CHARS,
  type ShowInput,
  type ShowResult,
  type WriteExtras,
} from './thread-ops.js';

/**
 * A screen's theme lines restyle its agent for good (doc2 "Look"): each is merged onto the saved look in
 * order with `mergeLook`, which cleans it and honours `at` (a change older than the saved look, or an
 * agent change against the person's own pick that is not newer, leaves the look as it is). A line
 * without its own `at` is dated by its message.
 */
async function saveLooks(
  deps: Pick<ThreadDeps, 'store' | 'notifier'>,
  agent: AgentRecord,
  looks: Record<string, unknown>[],
  at: number,
): Promise<void> {
  const { store, notifier } = deps;
  const fresh = (await store.agents.get(agent.id)) ?? agent;
  const when = new Date(at).toISOString();
  let look: Record<string, unknown> = cleanLook(fresh.theme) as Record<string, unknown>;
  for (const change of looks) look = mergeLook(look, change, { at: when }) as Record<string, unknown>;
  if (JSON.stringify(look) === JSON.stringify(fresh.theme)) return;
  await store.agents.update(agent.id, { theme: look }, at);
  notifier.publish({ type: 'agents', userId: agent.userId });
}

/** What `show` needs of the thread operations around it. */
export interface ShowContext {
  deps: ThreadDeps;
  core: ReturnType<typeof createThreadCore>;
  screenLines: NonNullable<ThreadDeps['screenLines']>;
  countWrite: (p: ConnectionPrincipal, agent: AgentRecord, extras: WriteExtras) => Promise<void>;
  agentFor: (p: ConnectionPrincipal, ref: string | undefined, guarded?: boolean) => Promise<AgentRecord>;
  kept: ReturnType<typeof keptServedAgents>;
}

/** `svc_show` (and a host's screen reply): checks the lines and the deadline, then writes the screen. */
export async function showScreen(
  ctx: ShowContext,
  p: ConnectionPrincipal,
  input: ShowInput,
  extras: WriteExtras,
  fresh = false,
): Promise<ShowResult> {
  const { deps, core, screenLines, countWrite, agentFor } = ctx;
  const lines = requireText(input.lines, 'lines', MAX_LINES_CHARS);
  const text = optionalText(input.text, 'text', MAX_TEXT_CHARS);
  const screenId = core.newId('scr_');
  const parsed = screenLines.parse(lines, { screen: screenId });
  // A screen without a deadline or table lines is one guarded statement (ADR 0291); tables are written
  // before the row, and a deadline in a transaction with it, so those check the agent and limit first.
  const guarded = !fresh && (input.deadline ?? null) === null && tableLines(parsed).length === 0;
  const agent = await agentFor(p, input.agent, guarded);
  await countWrite(p, agent, extras);
  if (parsed.errors.length > 0) {
    throw new ServiceError('INVALID_LINES', parsed.errors.map((e) => e.message).join('\n'), {
      field: 'lines',
      details: parsed.errors,
    });
  }
  if (parsed.ops.length === 0) {
    throw new ServiceError('INVALID_LINES', 'lines holds no component: write one component per line.', {
      field: 'lines',
    });
  }
  const taps = tapsOf(parsed.ops);
  const deadline =
    input.deadline === undefined || input.deadline === null
      ? undefined
      : planDeadline(
          input.deadline,
          {
            id: screenId,
            userId: p.userId,
            agentId: agent.id,
            messageId: '',
            messageSeq: 0,
            lines,
            ops: parsed.ops,
            taps,
            createdAt: 0,
          },
          core.now(),
          screenLines,
        );
  // An offer goes only to holders of the agent's share (ADR 0280): checked now, not when the step runs.
  if (deadline) await checkOfferHolders(deps.store, agent.id, deadline);
  const looks = parsed.ops.filter(isThemeOp).map((op) => op.look);
  const own = !extras.target || extras.target.userId === agent.userId;
  // The screen's table lines run first, on the agent's one set of tables: its views draw the rows it wrote,
  // and a refused line is told in this answer and kept with the screen for the person to read.
  const writes = await screenWrites(deps, agent, parsed, own);
  const append = (guard?: RowGuard) =>
    core.appendAgentScreen(
      agent,
      {
        body: lines,
        meta: {
          ...extras.meta,
          ...(text ? { text } : {}),
          ...(input.urgent === true ? { urgent: true } : {}),
          ...refusedMeta(writes),
          ...(deadline ? { deadline } : {}),
        },
        connectorId: p.connectorId,
        ...(extras.idemKey ? { idemKey: extras.idemKey } : {}),
      },
      { id: screenId, lines, ops: parsed.ops, taps },
      extras.target,
      deadline,
      guard,
    );
  // Refused because the connection no longer serves the agent: the whole call again, from a fresh read.
  type Outcome = { written: Awaited<ReturnType<typeof append>> } | { again: ShowResult };
  const outcome: Outcome = guarded
    ? await writeGuarded<Outcome>(
        p,
        ctx.kept,
        async (guard) => ({ written: await append(guard) }),
        async () => ({ again: await showScreen(ctx, p, input, extras, true) }),
      )
    : { written: await append() };
  if ('again' in outcome) return outcome.again;
  const { message, screen } = outcome.written;
  await writes?.appendCards();
  // A shared thread never restyles the owner's agent: the holder's look is the grant's.
  if (looks.length > 0 && own) await saveLooks(deps, agent, looks, message.createdAt);
  return {
    screen_id: screen.id,
    message_id: message.id,
    agent: toAgentRef(agent),
    tap_ids: taps.map((t) => t.id),
    taps,
    lines,
    ops: parsed.ops,
    ...(writes ? { tables: { wrote: writes.wrote, failed: writes.failed, pending: writes.pending } } : {}),
    ...(deadline ? { deadline } : {}),
  };
}

/** The refused lines a screen keeps in its meta (`tables_refused`), so the person reads which line and why. */
function refusedMeta(writes: ScreenWrites | null): Record<string, unknown> {
  const refused = writes?.failed.map(({ line, error }) => ({ line, error })) ?? [];
  return refused.length > 0 ? { tables_refused: refused } : {};
}

/** The screen's table lines (`table`, `drop`, `put`), as written. */
function tableLines(parsed: ScreenLinesResult): string[] {
  const lines: string[] = [];
  (parsed.ops as { op?: unknown }[]).forEach((op, i) => {
    if (op.op === 'table' || op.op === 'drop' || op.op === 'put') lines.push(parsed.spans[i]?.text ?? '');
  });
  return lines;
}

/** Runs a screen's table writes (`table create`, `table drop`, `put`) through `deps.screenTables`; null when none. */
function screenWrites(deps: ThreadDeps, agent: AgentRecord, parsed: ScreenLinesResult, own: boolean) {
  const lines = tableLines(parsed);
  return deps.screenTables && lines.length > 0 ? deps.screenTables(agent, lines, !own) : null;
}

function isThemeOp(op: unknown): op is { op: 'theme'; look: Record<string, unknown> } {
  const o = op as { op?: unknown; look?: unknown };
  return o?.op === 'theme' && typeof o.look === 'object' && o.look !== null;
}
