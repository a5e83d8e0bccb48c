// Whether a phone can open a link: an address on the loopback (localhost, 127.x, ::1) names the computer
// itself, so a phone scanning it reaches nothing.

/**
 * True when `url`'s host is this computer only (localhost, *.localhost, 127.0.0.0/8, ::1, 0.0.0.0).
 *
 * @example
 * ```ts
 * onlyThisComputer('http://localhost:8787/#/approve/ar_1'); // true
 * onlyThisComputer('http://192.168.1.20:8787/#/approve/ar_1'); // false
 * ```
 */
export function onlyThisComputer(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127(?:\.\d{1,3}){3}$/.test(host) ||
    host === '[::1]' ||
    host === '0.0.0.0'
  );
}
