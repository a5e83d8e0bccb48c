// OAuth sign-in through the real service with the official MCP SDK client's own OAuth: it starts from a bare
// 401, discovers through `resource_metadata`, registers, authorizes with PKCE and `resource`, the person
// approves through the person's API, it trades the code, calls svc_threads, and refreshes on its own.
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approveInBrowser,
  client,
  OAUTH,
  oauthSignIn,
  signUp,
  startTestServer,
  type TestServer,
} from './harness.js';

const REDIRECT = 'http://127.0.0.1:7777/callback';

/** What a desktop MCP app keeps between runs, in memory; the browser step is recorded, not opened. */
class RecordingProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK desktop app',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return 'sdk-state-1';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let t: TestServer;
let person: { access_token: string; user: { id: string } };
let mcpUrl: string;
beforeAll(async () => {
  t = await startTestServer();
  person = await signUp(client(t.base), 'oauth-person@example.com');
  mcpUrl = `${t.base}/functions/v1/svc-mcp`;
});
afterAll(() => t.close());

describe('the MCP SDK client signs in with OAuth', () => {
  it('bare 401 → discovery → registration → approval → token → svc_threads → refresh', async () => {
    const provider = new RecordingProvider();
    const seen: string[] = [];
    const logged: typeof fetch = (input, init) => {
      seen.push(`${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)}`);
      return fetch(input, init);
    };
    const transport = () =>
      new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: logged });

    await expect(
      new Client({ name: 'sdk-app', version: '1.0.0' }).connect(transport()),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    // Discovery went through the 401's resource_metadata, then found the issuer's metadata at its first try,
    // the RFC 8414 path-inserted location (before issue 41 two 404s came first).
    expect(seen).toContain(`GET ${mcpUrl}/.well-known/oauth-protected-resource`);
    const asMetadata = seen.filter(
      (s) => s.includes('/.well-known/') && !s.includes('oauth-protected-resource'),
    );
    expect(asMetadata).toEqual([`GET ${t.base}/.well-known/oauth-authorization-server${OAUTH}`]);
    expect(seen).toContain(`POST ${t.base}${OAUTH}/register`);
    const auth = provider.authorizationUrl!;
    expect(auth.origin + auth.pathname).toBe(`${t.base}${OAUTH}/authorize`);
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      resource: mcpUrl,
      state: 'sdk-state-1',
    });

    const { location } = await approveInBrowser(t.base, auth.href, person.access_token, {
      decision: 'allow',
      agent_name: 'Desktop agent',
    });
    const back = new URL(location);
    expect(back.searchParams.get('iss')).toBe(`${t.base}${OAUTH}`);
    expect(back.searchParams.get('state')).toBe('sdk-state-1');
    await transport().finishAuth(back.searchParams.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^svc_at_/);

    const app = new Client({ name: 'sdk-app', version: '1.0.0' });
    await app.connect(transport());
    const threads = await app.callTool({ name: 'svc_threads', arguments: {} });
    expect(threads.isError).toBeFalsy();
    expect(JSON.stringify(threads.structuredContent ?? threads.content)).toContain('Desktop agent');
    const shown = await app.callTool({ name: 'svc_show', arguments: { lines: 'choose@ok "Ready?" Yes|No' } });
    expect(shown.isError).toBeFalsy();

    // The connection is listed in the person's app as a sign-in, with the agent it talks as.
    const list = await client(t.base)('GET', '/connections', { token: person.access_token });
    const line = list.body.connections.find((c: { name: string }) => c.name === 'SDK desktop app');
    expect(line).toMatchObject({ via: 'oauth', kind: 'mcp', agents: [{ name: 'Desktop agent' }] });

    // The access token ends (revoked alone, RFC 7009); the next call's 401 makes the SDK refresh by itself.
    const first = provider.saved!;
    const revoked = await fetch(`${t.base}${OAUTH}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: first.access_token, client_id: provider.info!.client_id }),
    });
    expect(revoked.status).toBe(200);
    const again = await app.callTool({ name: 'svc_threads', arguments: {} });
    expect(again.isError).toBeFalsy();
    expect(provider.saved!.access_token).not.toBe(first.access_token);
    expect(provider.saved!.refresh_token).not.toBe(first.refresh_token);
    await app.close();
  });
});

describe('OAuth access tokens at the tool server', () => {
  it('reach only the agent picked at approval, and die when the connection is removed in the app', async () => {
    const other = await signUp(client(t.base), 'other-oauth@example.com');
    const mine = await oauthSignIn(t.base, person.access_token, 'Scoped app');
    const theirs = await oauthSignIn(t.base, other.access_token, 'Their app');
    interface ToolReply {
      result: { isError?: boolean; structuredContent: { agents: { id: string; name: string }[] } };
    }
    const json = async (r: Promise<Response>) => (await (await r).json()) as ToolReply;
    const call = (token: string, name: string, args: Record<string, unknown> = {}) =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: args },
        }),
      });
    const threads = await json(call(mine.access_token, 'svc_threads'));
    const agents = threads.result.structuredContent.agents;
    expect(agents.map((a) => a.name)).toEqual(['Scoped app']);
    const theirAgents = (await json(call(theirs.access_token, 'svc_threads'))).result.structuredContent
      .agents;
    const cross = await json(call(mine.access_token, 'svc_say', { text: 'hi', agent: theirAgents[0]!.id }));
    expect(cross.result.isError).toBe(true);

    const conns = await client(t.base)('GET', '/connections', { token: person.access_token });
    const id = conns.body.connections.find((c: { name: string }) => c.name === 'Scoped app').id;
    expect(
      (await client(t.base)('DELETE', `/connections/${id}`, { token: person.access_token })).status,
    ).toBe(204);
    // ADR 0095: 409 connector_revoked, not a 401 that would start a new sign-in by itself.
    const after = await call(mine.access_token, 'svc_threads');
    expect(after.status).toBe(409);
    expect(after.headers.get('www-authenticate')).toBeNull();
    expect(await after.json()).toMatchObject({ error: { data: { error: 'connector_revoked' } } });
  });

  it('serves discovery where clients look, and nothing at the bare host root', async () => {
    const prm = await fetch(`${mcpUrl}/.well-known/oauth-protected-resource`);
    expect(await prm.json()).toMatchObject({
      resource: mcpUrl,
      authorization_servers: [`${t.base}${OAUTH}`],
    });
    const inserted = await fetch(`${t.base}/.well-known/oauth-protected-resource/functions/v1/svc-mcp`);
    expect(await inserted.json()).toMatchObject({ resource: mcpUrl });
    for (const p of ['oauth-authorization-server', 'openid-configuration']) {
      for (const root of [`${t.base}${OAUTH}`, mcpUrl]) {
        expect(await (await fetch(`${root}/.well-known/${p}`)).json()).toMatchObject({
          issuer: `${t.base}${OAUTH}`,
        });
      }
      expect((await fetch(`${t.base}/.well-known/${p}`)).status).toBe(404);
    }
    expect((await fetch(`${t.base}/.well-known/oauth-protected-resource`)).status).toBe(404);
  });
});
