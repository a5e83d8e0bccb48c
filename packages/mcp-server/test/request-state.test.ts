// The `requestState` option: a tool added through `register` that asks the client (2026-07-28 input_required)
// carries signed state; the endpoint completes the honest retry and refuses tampered state with -32602.
import { createRequestStateCodec, inputRequired } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Stack, startStack } from './harness.js';

const codec = createRequestStateCodec<{ step: string }>({ key: 'a test key of at least thirty-two bytes!' });

let stack: Stack;
let token: string;
beforeAll(async () => {
  stack = await startStack({
    requestState: { verify: codec.verify },
    register(server) {
      server.registerTool('confirm_once', { description: 'Asks for a confirmation.' }, async (ctx) => {
        const state = ctx.mcpReq.requestState<{ step: string }>();
        const answer = ctx.mcpReq.inputResponses?.ok as { action?: string } | undefined;
        if (state?.step === 'asked' && answer?.action === 'accept') {
          return { content: [{ type: 'text', text: 'confirmed' }] };
        }
        return inputRequired({
          inputRequests: {
            ok: inputRequired.elicit({
              message: 'Confirm?',
              requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } },
            }),
          },
          requestState: await codec.mint({ step: 'asked' }),
        });
      });
    },
  });
  ({ token } = await stack.newConnection('Request state'));
});
afterAll(async () => {
  await stack.close();
});

async function call(id: number, extra: Record<string, unknown> = {}) {
  const res = await fetch(stack.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'confirm_once',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'confirm_once',
        arguments: {},
        ...extra,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
        },
      },
    }),
  });
  return (await res.json()) as {
    result?: { resultType?: string; requestState?: string; content?: { text: string }[] };
    error?: { code: number; message: string };
  };
}

it('completes a retry that echoes the signed state and refuses the same retry with the state altered', async () => {
  const first = await call(1);
  expect(first.result?.resultType).toBe('input_required');
  const state = first.result?.requestState;
  expect(typeof state).toBe('string');

  const accepted = { inputResponses: { ok: { action: 'accept', content: { yes: true } } } };
  const honest = await call(2, { ...accepted, requestState: state });
  expect(honest.result?.content?.[0]?.text).toBe('confirmed');

  // One character of the signed body changed: the MAC no longer matches.
  const body = String(state).split('.');
  body[1] = `${body[1]?.slice(0, -1)}${body[1]?.endsWith('A') ? 'B' : 'A'}`;
  const tampered = await call(3, { ...accepted, requestState: body.join('.') });
  expect(tampered.result).toBeUndefined();
  expect(tampered.error?.code).toBe(-32602);
  expect(stack.errors).toEqual([]);
});
