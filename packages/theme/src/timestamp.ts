// ISO 8601 timestamps for a look's `at`, read the same way on every platform (no Date.parse guesswork).

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * Milliseconds since the epoch of an ISO 8601 date-time with a zone (`Z` or `±HH:MM`), or `null` when
 * `text` is not one (date-only strings, missing zone, impossible dates such as 2026-02-30).
 *
 * @example
 * ```ts
 * parseTimestamp('2026-11-21T22:15:00+01:00'); // 1795295700000
 * ```
 */
export function parseTimestamp(text: unknown): number | null {
  if (typeof text !== 'string' || text.length > 40) return null;
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = Number(m[6] ?? '0');
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  if (hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  const zone = m[8] ?? 'Z';
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = Number(digits.slice(2) || '0');
    if (zh > 23 || zm > 59) return null;
    offsetMinutes = sign * (zh * 60 + zm);
  }
  const ms = date.getTime() - offsetMinutes * 60_000;
  const utcYear = new Date(ms).getUTCFullYear();
  return utcYear >= 0 && utcYear <= 9999 ? ms : null;
}

/**
 * The canonical form of a timestamp: UTC, `YYYY-MM-DDTHH:MM:SS.sssZ`; `null` when it is not one.
 *
 * @example
 * ```ts
 * normalizeTimestamp('2026-11-21T23:15+01:00'); // '2026-11-21T22:15:00.000Z'
 * ```
 */
export function normalizeTimestamp(text: unknown): string | null {
  const ms = parseTimestamp(text);
  return ms === null ? null : new Date(ms).toISOString();
}
