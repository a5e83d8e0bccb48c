// The start-up hint for a base URL a phone cannot open (localhost): the QR codes and links the service
// hands out name it, so the person's phone needs an address on the network instead.
import type { NetworkInterfaceInfo } from 'node:os';

const LOOPBACK = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;

/**
 * A line saying why a phone cannot reach `baseUrl` and how to set SVC_BASE_URL (with this machine's own
 * network address when it has one), or null when the base URL is not the loopback.
 */
export function phoneReachHint(
  baseUrl: string,
  bindHost: string,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>,
): string | null {
  const url = new URL(baseUrl);
  if (!LOOPBACK.test(url.hostname)) return null;
  const lan = Object.values(interfaces)
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  const example = `${url.protocol}//${lan ?? '192.168.1.20'}${url.port ? `:${url.port}` : ''}`;
  const listensOnLoopback = LOOPBACK.test(bindHost) && bindHost !== '0.0.0.0';
  return [
    `A phone cannot open ${url.origin}: it names this computer, and the sign-in QR codes and links point there.`,
    `To use your phone, start it with SVC_BASE_URL=${example}${listensOnLoopback ? ' HOST=0.0.0.0' : ''}`,
    lan ? '(this computer on your network)' : "(this computer's address on your network)",
    'or its public https address.',
  ].join(' ');
}
