// The checks of a thread operation's input that several operations share: text fields, and the tap ids a
// parsed screen offers (every path that stores a screen records them so a tap can be checked later).
import { ServiceError } from '@screen-service/registry/kernel';
import type { ScreenTap } from '@screen-service/registry/model';

/** Tap ids of a parsed screen: every component (`add` op) in order, with its preset. */
export function tapsOf(ops: unknown[]): ScreenTap[] {
  const taps: ScreenTap[] = [];
  for (const op of ops as { op?: unknown; id?: unknown; preset?: unknown }[]) {
    if (op.op === 'add' && typeof op.id === 'string' && typeof op.preset === 'string') {
      taps.push({ id: op.id, preset: op.preset });
    }
  }
  return taps;
}

/** A required text field of at most `max` characters; refuses empty or longer text, naming `field`. */
export function requireText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ServiceError('INVALID_INPUT', `${field} is required and must be non-empty text.`, { field });
  }
  if (value.length > max) {
    throw new ServiceError('INVALID_INPUT', `${field} is ${value.length} characters; the limit is ${max}.`, {
      field,
    });
  }
  return value;
}

/** An optional text field: absent, null or empty is undefined; otherwise as {@link requireText}. */
export function optionalText(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return requireText(value, field, max);
}
