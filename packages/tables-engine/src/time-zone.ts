// Resolves today, today±N and now in an IANA time zone with Intl, at the moment a line lands.
import { TablesError } from './errors.js';

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      throw new TablesError(
        'INVALID_TIME_ZONE',
        `time zone '${timeZone}' is not an IANA time zone; pass one such as 'Europe/Berlin' or 'UTC'`,
      );
    }
    formats.set(timeZone, format);
  }
  return format;
}

/** Throws INVALID_TIME_ZONE unless `timeZone` is a zone Intl knows. */
export function assertTimeZone(timeZone: string): void {
  formatFor(timeZone);
}

function wallClock(now: Date, timeZone: string): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const part of formatFor(timeZone).formatToParts(now)) parts[part.type] = part.value;
  return parts;
}

/** The date `YYYY-MM-DD` that is `offsetDays` from today in `timeZone`. */
export function resolveToday(now: Date, timeZone: string, offsetDays = 0): string {
  const p = wallClock(now, timeZone);
  const day = new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day) + offsetDays));
  return day.toISOString().slice(0, 10);
}

/** The wall-clock time `YYYY-MM-DDTHH:MM` in `timeZone`. */
export function resolveNow(now: Date, timeZone: string): string {
  const p = wallClock(now, timeZone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}
