// The text half of each tool result: what a host that reads only text shows the model.

import type { AnswersResult, ShowResult, TapResult, ThreadsResult } from '@screen-service/core/threads';
import { catalog } from '@screen-service/screen-lines';

/**
 * The taps a person can answer: components whose catalog entry has an event that reaches the agent. A
 * `text` or `image` line gets an id too, but nothing ever comes back from it.
 */
export function tappableTaps<T extends { preset: string }>(taps: readonly T[]): T[] {
  return taps.filter((t) => catalog[t.preset]?.events.some((e) => !e.quiet) ?? false);
}

export function showText(
  r: Pick<ShowResult, 'screen_id' | 'agent' | 'taps' | 'tables' | 'deadline'>,
): string {
  const taps = r.taps.length > 0 ? r.taps.map((t) => t.id).join(', ') : 'none (nothing on it to tap)';
  return [
    `Screen ${r.screen_id} is on @${r.agent.handle}'s thread. Tap ids: ${taps}.`,
    ...tablesText(r.tables),
    ...deadlineText(r.deadline),
    `Wait for the answer: svc_answers(screen_id="${r.screen_id}", wait=25), again while it returns nothing.`,
  ].join('\n');
}

/** When the screen decides without the person (ADR 0260), and what it then chooses. */
function deadlineText(d: ShowResult['deadline']): string[] {
  if (!d) return [];
  const chosen = d.defaults.map((x) => `${x.id}=${String(x.value)}`).join(', ');
  return [
    chosen
      ? `Deadline ${d.due}: if nobody answers by then, ${chosen} is chosen (svc_answers marks it decided_by "default").`
      : `Deadline ${d.due}: if nobody answers by then, the screen expires (svc_answers returns an "expired" item).`,
  ];
}

/** What the screen's table lines did (ADR 0250): a refused line never reads as saved. */
function tablesText(t: ShowResult['tables']): string[] {
  if (!t) return [];
  const out: string[] = [];
  if (t.failed.length > 0) {
    out.push(
      `${t.failed.length} table ${t.failed.length === 1 ? 'line was' : 'lines were'} refused and not saved (the same reasons svc_tables gives; fix and send them again):`,
      ...t.failed.map((f) => `- ${f.line}: ${f.error}`),
    );
  }
  if (t.wrote > 0) out.push(`${t.wrote} table ${t.wrote === 1 ? 'line' : 'lines'} saved.`);
  for (const p of t.pending) out.push(`Waiting for the person's Delete / Keep tap: ${p.prompt}`);
  return out;
}

export function answersText(r: AnswersResult): string {
  if (r.answers.length === 0) {
    return `Nothing new from the person in @${r.agent.handle}'s thread yet. Call svc_answers again (wait=25) to keep waiting.`;
  }
  return r.answers
    .map((a) => {
      const tap =
        a.decided_by === 'default'
          ? `Nobody answered by the deadline; decided by default:\n${a.text}`
          : a.text;
      const head = a.kind === 'tap' ? tap : `The person wrote: ${a.text}`;
      return [head, ...a.photos.map((p) => `photo: ${p}`)].join('\n');
    })
    .join('\n\n');
}

export function threadsText(r: ThreadsResult): string {
  if (r.agents.length === 0)
    return 'This connection serves no agent yet: pair an agent code with this token.';
  return r.agents
    .map((a) => `@${a.handle} (${a.name}) id=${a.id} unread=${a.unread}${a.is_default ? ' (default)' : ''}`)
    .join('\n');
}

export function tapText(r: TapResult): string {
  return `${r.line}\n${r.handled ? 'Recorded as handled (the host took the message).' : 'Recorded; svc_answers will return it.'}`;
}
