// Durations as written on a timer line: 90s, 5m, 1h30m, 1h 30m is two terms so not accepted, or m:ss.

const UNITS = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;
const CLOCK = /^(?:(\d+):)?(\d{1,2}):(\d{2})$/;

/** Seconds of a written duration, or `undefined` when it is not one. */
export function parseDuration(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text) * 60;
  const units = UNITS.exec(text);
  if (units && text.length > 0) {
    return Number(units[1] ?? 0) * 3600 + Number(units[2] ?? 0) * 60 + Number(units[3] ?? 0);
  }
  const clock = CLOCK.exec(text);
  if (clock) return Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  return undefined;
}

/** Canonical form of a duration: `1h30m`, `5m`, `90s` stays `1m30s`. */
export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const out = `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
  return out === '' ? '0s' : out;
}
