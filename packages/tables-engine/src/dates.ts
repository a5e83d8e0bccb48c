// Calendar helpers for stored dates: validation and the day, week (Monday) and month a date falls in.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)$/;

function realDay(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d)
  );
}

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isDay(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && realDay(m[1]!, m[2]!, m[3]!);
}

/** True for a real day and time written `YYYY-MM-DDTHH:MM`. */
export function isDayTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  return m !== null && realDay(m[1]!, m[2]!, m[3]!);
}

/** The bucket a stored date falls in: its day, the Monday of its week, or `YYYY-MM`. */
export function dateBucket(value: string, by: 'day' | 'week' | 'month'): string {
  if (by === 'month') return value.slice(0, 7);
  const day = value.slice(0, 10);
  if (by === 'day') return day;
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}
