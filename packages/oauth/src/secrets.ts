// Random secrets and the resource comparison.
import { randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: browser-binding secrets, authorization codes, client secrets. */
export function randomSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Whether a `resource` parameter names the tool server (as URLs: scheme and host case, default port). */
export function sameResource(given: string, mcpUrl: string): boolean {
  try {
    const g = new URL(given);
    return g.hash === '' && !given.includes('#') && g.href === new URL(mcpUrl).href;
  } catch {
    return false;
  }
}
