// computeTap: the one server-side tap path checks every tap against the component the screen's stored ops draw.
import { ServiceError } from '@screen-service/registry/kernel';
import type { ScreenRecord } from '@screen-service/registry/model';
import { describe, expect, it } from 'vitest';
import { defaultScreenLines } from './screen-lines-port.js';
import { computeTap } from './tap-event.js';
import { tapsOf } from './thread-input.js';

function screenOf(lines: string): ScreenRecord {
  const { ops, errors } = defaultScreenLines.parse(lines, { screen: 'scr_1' });
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('; '));
  return {
    id: 'scr_1',
    userId: 'u',
    agentId: 'a',
    messageId: 'm',
    messageSeq: 1,
    lines,
    ops,
    taps: tapsOf(ops),
    createdAt: 0,
  };
}

const tap = (screen: ScreenRecord, raw: unknown, extra?: Record<string, unknown>) =>
  computeTap(screen, raw, defaultScreenLines, extra);

function refusal(screen: ScreenRecord, raw: unknown): ServiceError {
  try {
    tap(screen, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}

describe('computeTap: a tap carries only what the screen offered (issue 46 item 0)', () => {
  const deploy = screenOf('choose@ok "Deploy to production?" Yes|No');

  it('refuses a choice the screen never offered, naming what it accepts', () => {
    const e = refusal(deploy, { id: 'ok', value: 'Pizza' });
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.field).toBe('event.value');
    expect(e.message).toBe('choose "ok" accepts one of: Yes, No; got "Pizza".');
    expect(e.details).toEqual({ accepts: 'one of: Yes, No' });
  });

  it('refuses an object for a choice, a missing value and fields the component never carries', () => {
    expect(refusal(deploy, { id: 'ok', value: { drop: 'table' } }).message).toContain(
      'got an object with drop',
    );
    expect(refusal(deploy, { id: 'ok' }).message).toContain('got null');
    const extra = refusal(deploy, { id: 'ok', value: 'Yes', approved_by: 'admin' });
    expect(extra.field).toBe('event.approved_by');
    expect(extra.message).toContain('accepts only the event fields value');
  });

  it('refuses "maybe" for a confirm and a label that is not its button', () => {
    const confirm = screenOf('confirm@go "Send the report?" Send|Later');
    expect(refusal(confirm, { id: 'go', value: 'maybe' }).message).toBe(
      'confirm "go" accepts true (Send) or false (Later); got "maybe".',
    );
    const label = refusal(confirm, { id: 'go', value: true, label: 'Later' });
    expect(label.field).toBe('event.label');
    // The label is the screen's: given or not, the stored event names the button that answers `value`.
    expect(tap(confirm, { id: 'go', value: false }).event).toEqual({
      id: 'go',
      preset: 'confirm',
      value: false,
      screen: 'scr_1',
      label: 'Later',
    });
    expect(tap(confirm, { id: 'go', value: false }).echo).toBe('Later');
  });

  it('accepts what the screen offers and writes the tap line from it', () => {
    const t = tap(deploy, { id: 'ok', value: 'Yes', preset: 'buttons', screen: 'elsewhere' });
    expect(t.event).toEqual({ id: 'ok', preset: 'choose', value: 'Yes', screen: 'scr_1' });
    expect(t.line.split('\n')[0]).toBe('[svc] ok choose choice=Yes');
    expect(t.quiet).toBe(false);
  });

  it('checks a form field by field: declared keys, types and formats', () => {
    const form = screenOf('form@f name:text age:number day:date mail:email ok:bool');
    expect(
      tap(form, { id: 'f', value: { name: 'Ana', age: 31, day: '2026-02-28', ok: true } }).event.value,
    ).toEqual({ name: 'Ana', age: 31, day: '2026-02-28', ok: true });
    expect(refusal(form, { id: 'f', value: { drop: 'table' } }).message).toBe(
      'form "f" accepts only its fields: name (text), age (number), day (date), mail (email), ok (bool); got a field "drop".',
    );
    expect(refusal(form, { id: 'f', value: { day: '2026-02-30' } }).field).toBe('event.value.day');
    expect(refusal(form, { id: 'f', value: { mail: 'not an address' } }).message).toContain(
      'mail as an email address like name@example.com',
    );
    expect(refusal(form, { id: 'f', value: { age: '31' } }).field).toBe('event.value.age');
    expect(refusal(form, { id: 'f', value: { name: 'x'.repeat(2001) } }).field).toBe('event.value.name');
  });

  it('checks the component as drawn: patches on the same screen apply', () => {
    const patched = screenOf('choose@q "Pick" A|B\n@q options=A|B|C');
    expect(tap(patched, { id: 'q', value: 'C' }).event.value).toBe('C');
    const reset = screenOf('checkin@c scale "Pain?" max=3\n@c max=');
    expect(tap(reset, { id: 'c', value: 10 }).event).toMatchObject({ value: 10, kind: 'scale' });
    expect(refusal(reset, { id: 'c', value: 11 }).message).toContain('a number from 1 to 10');
  });

  it('quiet comes from the catalog: a deck card turned is quiet even when the app does not say so', () => {
    const deck = screenOf('deck@d "One"|"Two"|"Three"');
    expect(tap(deck, { id: 'd', value: 1 }).quiet).toBe(true);
    expect(tap(deck, { id: 'd', value: 3 }).quiet).toBe(false);
    expect(refusal(deck, { id: 'd', value: 4 }).message).toBe(
      'deck "d" accepts 3 (the deck finished) or a card turned, 1 to 2; got 4.',
    );
    const timer = screenOf('timer@t 5m Tea');
    expect(tap(timer, { id: 't', value: 'start' })).toMatchObject({ quiet: true, event: { seconds: 300 } });
    expect(refusal(timer, { id: 't', value: 'done', seconds: 1 }).field).toBe('event.seconds');
  });

  it('refuses a tap on a component that asks nothing, and an unknown id as before', () => {
    const text = screenOf('text hello\nchoose "Q" A|B');
    expect(refusal(text, { id: 'n1', value: 'x' })).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'event.id',
      message: 'text "n1" takes no taps; tap a component that asks something.',
    });
    expect(refusal(text, { id: 'zz', value: 'A' }).code).toBe('NOT_ON_SCREEN');
  });

  it("adds the service's own fields after the check, unchecked (a tables card's outcome)", () => {
    const card = screenOf('confirm@tdel-1 "Delete row mon from Weights?" Delete|Keep');
    const t = tap(card, { id: 'tdel-1', value: true }, { op: 'delete', table: 'Weights', deleted: true });
    expect(t.event).toEqual({
      id: 'tdel-1',
      preset: 'confirm',
      value: true,
      screen: 'scr_1',
      label: 'Delete',
      op: 'delete',
      table: 'Weights',
      deleted: true,
    });
    // The person cannot claim the outcome themselves.
    expect(refusal(card, { id: 'tdel-1', value: true, deleted: true }).field).toBe('event.deleted');
  });

  it('reads the stored lines when the stored ops lack the component (rows of older writers)', () => {
    const screen = { ...deploy, ops: [] };
    expect(tap(screen, { id: 'ok', value: 'No' }).event.value).toBe('No');
    expect(refusal(screen, { id: 'ok', value: 'Pizza' }).code).toBe('INVALID_INPUT');
  });
});
