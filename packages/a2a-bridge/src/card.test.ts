// Cards: the URL, the version choice, the endpoint, and refusals with a reason.
import { describe, expect, it } from 'vitest';
import { cardUrlFor, fetchAgentCard, readAgentCard } from './card.js';
import { BridgeError } from './errors.js';

const at = 'https://agents.example/.well-known/agent-card.json';

describe('cardUrlFor', () => {
  it('appends the well-known path and keeps a query that selects an assistant', () => {
    expect(cardUrlFor('https://agents.example/graph?assistant_id=a1')).toBe(
      'https://agents.example/graph/.well-known/agent-card.json?assistant_id=a1',
    );
    expect(cardUrlFor('https://agents.example/')).toBe(at);
    expect(cardUrlFor(at)).toBe(at);
  });

  it('refuses what is not an http(s) URL, saying what to give', () => {
    expect(() => cardUrlFor('agents.example')).toThrow(/not a URL; give the agent's address/);
    expect(() => cardUrlFor('ftp://agents.example')).toThrow(/give an http:\/\/ or https:\/\//);
  });
});

describe('readAgentCard', () => {
  const v10 = { url: 'https://agents.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' };
  const v03 = { url: 'https://agents.example/rpc03', protocolBinding: 'JSONRPC', protocolVersion: '0.3' };

  it('a card listing both versions gets 1.0', () => {
    const card = readAgentCard(
      { name: 'Both', supportedInterfaces: [v03, v10], capabilities: { streaming: true } },
      at,
    );
    expect(card).toMatchObject({
      protocolVersion: '1.0',
      versionHeader: '1.0',
      endpoint: v10.url,
      streaming: true,
    });
  });

  it('a 0.3 card: url with preferredTransport, or a JSON-RPC entry in additionalInterfaces', () => {
    expect(readAgentCard({ name: 'Old', protocolVersion: '0.3.0', url: '/rpc' }, at)).toMatchObject({
      protocolVersion: '0.3',
      endpoint: 'https://agents.example/rpc',
      streaming: false,
    });
    const card = readAgentCard(
      {
        name: 'Old',
        protocolVersion: '0.3.0',
        url: 'https://agents.example/grpc',
        preferredTransport: 'GRPC',
        additionalInterfaces: [{ url: 'https://agents.example/jsonrpc', transport: 'JSONRPC' }],
      },
      at,
    );
    expect(card.endpoint).toBe('https://agents.example/jsonrpc');
  });

  it('refuses a card with only gRPC and HTTP+JSON bindings, naming them and the next step', () => {
    const only = {
      name: 'Grpc',
      supportedInterfaces: [
        { url: 'https://a/g', protocolBinding: 'GRPC', protocolVersion: '1.0' },
        { url: 'https://a/r', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
    };
    let error: unknown;
    try {
      readAgentCard(only, at);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'CARD_NO_JSONRPC' });
    expect((error as Error).message).toMatch(/offers only GRPC, HTTP\+JSON.*enable its JSON-RPC interface/);
  });

  it('refuses other versions and broken cards with the reason', () => {
    expect(() =>
      readAgentCard(
        {
          name: 'New',
          supportedInterfaces: [{ url: 'https://a', protocolBinding: 'JSONRPC', protocolVersion: '2.0' }],
        },
        at,
      ),
    ).toThrow(expect.objectContaining({ code: 'CARD_VERSION_UNSUPPORTED' }));
    expect(() => readAgentCard([], at)).toThrow(expect.objectContaining({ code: 'INVALID_CARD' }));
    expect(() => readAgentCard({ supportedInterfaces: [v10] }, at)).toThrow(/has no "name"/);
    expect(() => readAgentCard({ name: 'X' }, at)).toThrow(/names no endpoint/);
  });

  it('lists skills and spots the graph framework by its extensions', () => {
    const card = readAgentCard(
      {
        name: 'Graph',
        supportedInterfaces: [v10],
        skills: [{ id: 's1', name: 'Plan', description: 'Plans a trip', tags: [] }],
        capabilities: { extensions: [{ uri: 'https://langchain.com/langgraph/a2a/thread' }] },
      },
      at,
    );
    expect(card.skills).toEqual([{ id: 's1', name: 'Plan', description: 'Plans a trip' }]);
    expect(card.graphFramework).toBe(true);
    expect(readAgentCard({ name: 'X', supportedInterfaces: [v10] }, at).graphFramework).toBe(false);
  });
});

describe('fetchAgentCard', () => {
  it('says the agent could not be reached, with a next step', async () => {
    await expect(fetchAgentCard('http://127.0.0.1:9/')).rejects.toMatchObject({
      code: 'CARD_FETCH_FAILED',
      message: expect.stringMatching(/could not reach .*check the address/),
    });
  });
});
