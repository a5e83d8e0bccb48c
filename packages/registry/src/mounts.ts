// Where each adapter is mounted (doc1/doc2 `/functions/v1/svc-*`) and the public URLs built from a base URL:
// the one definition the server, the OAuth package, the tool server and the CLI read.

/** Mount path of each adapter under the service's base URL. */
export const MOUNTS = {
  /** The person's API (the app). */
  app: '/functions/v1/svc-app',
  /** The management API (`list`, `create`, tokens; doc2 `{agents_url}`). */
  agents: '/functions/v1/svc-agents',
  /** The host API (`pair`, heartbeats). */
  connect: '/functions/v1/svc-connect',
  /** The tool server (MCP). */
  mcp: '/functions/v1/svc-mcp',
  /** The OAuth 2.1 authorization server (issuer). */
  oauth: '/functions/v1/svc-oauth',
  /** Signed photo links, under the person's API. */
  photos: '/functions/v1/svc-app/photos',
  /** The consent page of the web app. */
  connectPage: '/connect',
} as const;

/** The public URLs of one service, all absolute. */
export interface ServiceUrls {
  /** `https://svc.example` (no trailing slash). */
  baseUrl: string;
  appUrl: string;
  /** doc2 `{agents_url}`: the management API. */
  agentsUrl: string;
  connectUrl: string;
  mcpUrl: string;
  /** The OAuth issuer. */
  oauthUrl: string;
  photosUrl: string;
  connectPageUrl: string;
}

/**
 * Every public URL from the base URL (a trailing slash is dropped).
 *
 * @throws {TypeError} when `baseUrl` is not an absolute http(s) URL.
 * @example
 * ```ts
 * serviceUrls('https://svc.example').mcpUrl; // 'https://svc.example/functions/v1/svc-mcp'
 * ```
 */
export function serviceUrls(baseUrl: string): ServiceUrls {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new TypeError(
      `base URL ${JSON.stringify(baseUrl)} is not an absolute URL like https://svc.example`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`base URL ${JSON.stringify(baseUrl)} must start with http:// or https://`);
  }
  const base = baseUrl.replace(/\/+$/, '');
  return {
    baseUrl: base,
    appUrl: base + MOUNTS.app,
    agentsUrl: base + MOUNTS.agents,
    connectUrl: base + MOUNTS.connect,
    mcpUrl: base + MOUNTS.mcp,
    oauthUrl: base + MOUNTS.oauth,
    photosUrl: base + MOUNTS.photos,
    connectPageUrl: base + MOUNTS.connectPage,
  };
}
