// Random secrets and the resource comparison.
import { mintSecret, type Random } from '@screen-service/registry/kernel';

/** 32 random bytes from the rules' `random`, base64url: browser-binding secrets, authorization codes, client secrets. */
export function randomSecret(random: Random, prefix = ''): string {
  return mintSecret(prefix, random);
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
