// Through the app as a person does it: create an account, add an agent, read its pairing code off the page;
// then the host pairs with that code over HTTP. Gives the connection token (the page is left on the code).
import type { Page } from 'playwright-core';

/**
 * Signs up in the app at `baseUrl` as `email`, adds an agent named `agentName` and pairs an MCP host to it;
 * the host reaches the service at `hostUrl` (default `baseUrl`; another address when the phone's is a gate).
 *
 * @example
 * ```ts
 * const token = await pairInApp(page, service.url, 'cook@example.com', 'Cook');
 * agent = await connectMcpAgent(service.url, token);
 * ```
 */
export async function pairInApp(
  page: Page,
  baseUrl: string,
  email: string,
  agentName: string,
  hostUrl = baseUrl,
): Promise<string> {
  await page.goto(baseUrl);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('link', { name: '+ Add an agent' }).click();
  await page.getByLabel(/Name it after/).fill(agentName);
  await page.getByRole('button', { name: 'Get a pairing code' }).click();
  const code = await page.locator('output.code').getAttribute('data-code');
  const remoteRef = agentName.toLowerCase().replace(/\W+/g, '-');
  const res = await fetch(`${hostUrl}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'pair', code, remote_ref: remoteRef, kind: 'mcp', host_name: 'Laptop' }),
  });
  if (res.status !== 200) throw new Error(`pairing failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { connector_token: string }).connector_token;
}
