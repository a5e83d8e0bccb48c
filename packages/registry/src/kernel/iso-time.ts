// ISO 8601 UTC text of an epoch-millisecond instant, the same as Date#toISOString, without a Date per call.

const DAY_MS = 86_400_000;
/** 9999-12-31T23:59:59.999Z: past it (and before 1970) toISOString is used as is. */
const LAST_FAST_MS = 253_402_300_799_999;

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

// The last day and second formatted: rows of a page are mostly minutes apart, so both hit often.
let cachedDay = -1;
let dayPrefix = '';
let cachedSecond = -1;
let secondPrefix = '';

/**
 * `new Date(ms).toISOString()` for an instant in epoch milliseconds, character for character. The date part
 * is formatted once per day and the time up to the second once per second (both cached), so a page of rows
 * costs a string concatenation per timestamp instead of a Date and its formatting. Instants before 1970,
 * after year 9999, or not a whole number of milliseconds take toISOString itself (which also throws the same
 * RangeError for an invalid time).
 *
 * @example
 * ```ts
 * isoTime(0); // '1970-01-01T00:00:00.000Z'
 * ```
 */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > LAST_FAST_MS) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    const day = Math.floor(ms / DAY_MS);
    if (day !== cachedDay) {
      cachedDay = day;
      // Formatted once per day: the date part of toISOString itself.
      dayPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    }
    const inDay = second - day * 86_400;
    const h = Math.floor(inDay / 3600);
    const m = Math.floor((inDay % 3600) / 60);
    cachedSecond = second;
    secondPrefix = `${dayPrefix}${two(h)}:${two(m)}:${two(inDay % 60)}.`;
  }
  return `${secondPrefix}${three(ms - second * 1000)}Z`;
}

/** {@link isoTime}, with null for null. */
export function isoTimeOrNull(ms: number | null): string | null {
  return ms === null ? null : isoTime(ms);
}
