import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from './errors.js';
import { checkModelConfig, completionsUrl, createModelClient } from './model-client.js';
import { type ModelServer, startModelServer } from './testing.js';

let model: ModelServer | undefined;
let raw: http.Server | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  await new Promise((r) => (raw ? raw.close(r) : r(undefined)));
  raw = undefined;
});

const ask = [{ role: 'user' as const, content: 'hi' }];

describe('createModelClient', () => {
  it('reads an SSE stream when the server offers one', async () => {
    model = await startModelServer({ chunk: 3 });
    model.script({ text: 'A streamed answer.', tokens: 42 });
    const client = createModelClient({ url: model.url, model: 'm' });
    expect(await client.complete(ask)).toEqual({ text: 'A streamed answer.', tokens: 42, streamed: true });
    expect(model.requests[0]).toMatchObject({ stream: true, model: 'm', authorization: null });
  });

  it('reads JSON when the server does not stream', async () => {
    model = await startModelServer({ streaming: false });
    model.script({ text: 'Plain JSON.', tokens: 7 });
    const client = createModelClient({ url: `${model.url}/chat/completions`, model: 'm', key: 'k' });
    expect(await client.complete(ask)).toEqual({ text: 'Plain JSON.', tokens: 7, streamed: false });
    expect(model.requests[0]!.authorization).toBe('Bearer k');
  });

  it('retries a busy server with back-off and then answers', async () => {
    model = await startModelServer();
    model.script({ status: 503 }, { status: 429 }, 'Third time.');
    const waits: number[] = [];
    const client = createModelClient({
      url: model.url,
      model: 'm',
      attempts: 3,
      backoffMs: 10,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect((await client.complete(ask)).text).toBe('Third time.');
    expect(waits).toEqual([10, 20]);
  });

  it('does not retry a refusal and names the status', async () => {
    model = await startModelServer();
    model.script({ status: 401, body: '{"error":{"message":"bad key"}}' });
    const client = createModelClient({ url: model.url, model: 'm', attempts: 3, backoffMs: 1 });
    const err = await client.complete(ask).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ code: 'MODEL_REFUSED', transient: false });
    expect((err as Error).message).toContain('HTTP 401');
    expect(model.requests).toHaveLength(1);
  });

  it('gives up on a server that is down, as MODEL_UNREACHABLE', async () => {
    model = await startModelServer();
    await model.stop();
    const client = createModelClient({ url: model.url, model: 'm', attempts: 2, backoffMs: 1 });
    await expect(client.complete(ask)).rejects.toMatchObject({ code: 'MODEL_UNREACHABLE', transient: true });
  });

  it('times out a model that never finishes', async () => {
    raw = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': still thinking\n\n');
    });
    await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', r));
    const port = (raw.address() as AddressInfo).port;
    const client = createModelClient({
      url: `http://127.0.0.1:${port}/v1`,
      model: 'm',
      timeoutMs: 150,
      attempts: 1,
    });
    await expect(client.complete(ask)).rejects.toMatchObject({ code: 'MODEL_TIMEOUT' });
    raw.closeAllConnections();
  });

  it('refuses an answer that is not a chat completion', async () => {
    raw = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"nothing":true}');
    });
    await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', r));
    const port = (raw.address() as AddressInfo).port;
    const client = createModelClient({ url: `http://127.0.0.1:${port}`, model: 'm' });
    await expect(client.complete(ask)).rejects.toMatchObject({ code: 'MODEL_BAD_ANSWER' });
  });
});

describe('checkModelConfig', () => {
  it('names the setting and the fix', () => {
    expect(() => checkModelConfig({ url: 'localhost:8080', model: 'm' })).toThrow(/SVC_MODEL_URL/);
    expect(() => checkModelConfig({ url: 'ftp://x', model: 'm' })).toThrow(/http/);
    expect(() => checkModelConfig({ url: 'http://x', model: ' ' })).toThrow(/SVC_MODEL_NAME/);
  });

  it('finds the completions URL of a base URL', () => {
    expect(completionsUrl('http://h/v1/')).toBe('http://h/v1/chat/completions');
    expect(completionsUrl('http://h/v1/chat/completions')).toBe('http://h/v1/chat/completions');
  });
});
