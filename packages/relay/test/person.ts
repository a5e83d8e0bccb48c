// The person's side of a relayed ask, through the person's API: read a screen's question, answer it by title.
import { expect } from 'vitest';
import type { personSide } from './service.js';

type Person = ReturnType<typeof personSide>;
type Screen = { id: string; lines: string };

/** The question of a one-component screen (`ask@ask "..."`, `choose@ask "..." A|B`). */
export function questionOf(lines: string): string {
  const m = /^\w+@\w+ "((?:[^"\\]|\\.)*)"/.exec(lines);
  return (m?.[1] ?? '').replace(/\\"/g, '"');
}

/** The field title a field screen asks for (the question up to its optional mark or description). */
export function titleOf(lines: string): string {
  return questionOf(lines)
    .split(' · ')[0]!
    .replace(/ \(optional[^)]*\)$/, '');
}

/** The chat line shown with a screen (its `text`). */
export async function textOf(person: Person, screenId: string): Promise<string> {
  const m = (await person.messages()).find((x) => x.screen?.id === screenId);
  return String(m?.meta?.text ?? '');
}

/**
 * Answers a relayed form: `Answer` on the first screen, each field by its title (a list of values answers
 * the same field again after a refusal), then `final` on the review. Gives the screens it saw, in order.
 */
export async function answerForm(
  person: Person,
  seen: Set<string>,
  byTitle: Record<string, unknown[]>,
  final: 'Send' | 'Decline' | 'Cancel' = 'Send',
): Promise<Screen[]> {
  const screens: Screen[] = [];
  const first = await person.nextScreen(seen);
  screens.push(first);
  await person.tap(first.id, { id: 'ask', value: 'Answer' });
  const left = Object.fromEntries(Object.entries(byTitle).map(([k, v]) => [k, [...v]]));
  for (;;) {
    const s = await person.nextScreen(seen);
    screens.push(s);
    if (/Send\|Change\|Decline\|Cancel|Change\|Decline\|Cancel/.test(s.lines)) {
      await person.tap(s.id, { id: 'ask', value: final });
      return screens;
    }
    const title = titleOf(s.lines);
    const values = left[title];
    if (!values?.length) throw new Error(`no answer left for "${title}" (${s.lines})`);
    await person.tap(s.id, { id: 'ask', value: values.shift() });
  }
}

/** The `Raw result: {...}` server-everything prints: exactly what it received. */
export function rawResult(text: string): unknown {
  const at = text.indexOf('Raw result:');
  return JSON.parse(text.slice(at + 'Raw result:'.length));
}

/**
 * What the person now sees of a withdrawn screen: the thread holds its "Withdrawn" row (written by the service,
 * decided by the agent), and a tap on it is refused 409 "withdrawn by the agent" and not recorded.
 */
export async function expectWithdrawn(person: Person, screenId: string): Promise<void> {
  await expect
    .poll(async () =>
      (await person.messages()).filter(
        (m) =>
          m.kind === 'tap' &&
          m.meta?.via === 'withdraw' &&
          (m.meta.event as { screen?: string } | undefined)?.screen === screenId,
      ),
    )
    .toEqual([
      expect.objectContaining({
        meta: expect.objectContaining({ echo: 'Withdrawn', decided_by: 'agent', value: 'withdrawn' }),
      }),
    ]);
  const tap = await person.tapRaw(screenId, { id: 'ask', value: 'Answer' });
  expect(tap.status).toBe(409);
  expect(JSON.stringify(tap.body)).toContain('withdrawn by the agent');
}
