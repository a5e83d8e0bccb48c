// Serves a 1.0 A2A agent (@a2a-js/sdk) on 127.0.0.1 for the fixtures: its card at the well-known address and
// JSON-RPC at /a2a, one skill; `url` is what `svc-a2a pair --card` takes.
import type { AddressInfo } from 'node:net';
import { type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';

export interface ServedAgent {
  url: string;
  close(): Promise<void>;
}

/** Starts `executor` behind a card named `name` with one skill. */
export async function serveAgent(
  o: { name: string; description: string; skill: { id: string; name: string; description: string } },
  executor: AgentExecutor,
  streaming = true,
): Promise<ServedAgent> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = {
    name: o.name,
    description: o.description,
    supportedInterfaces: [
      { url: `${base}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        ...o.skill,
        tags: [],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card as never, new InMemoryTaskStore(), executor);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
