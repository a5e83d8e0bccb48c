// Through the person's HTTP API only: an account, an agent and its code, paired as an MCP connection.
export async function signUpAndPair(baseUrl: string, email: string): Promise<string> {
  const api = `${baseUrl}/functions/v1/svc-app`;
  const post = async (url: string, body: unknown, token?: string) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const session = await post(`${api}/auth/signup`, { email, password: 'correct horse battery' });
  const created = await post(`${api}/agents`, { name: 'Chat' }, session.access_token as string);
  const code = (created.pairing as { code: string }).code;
  const paired = await post(`${baseUrl}/functions/v1/svc-connect`, {
    action: 'pair',
    code,
    remote_ref: 'chat-app',
    kind: 'mcp',
    host_name: 'Chat app',
  });
  return paired.connector_token as string;
}
