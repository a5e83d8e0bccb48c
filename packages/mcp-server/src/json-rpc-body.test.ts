import { ServiceError } from '@screen-service/registry/kernel';
import { describe, expect, it } from 'vitest';
import { checkJsonRpcBody, MAX_BATCH } from './json-rpc-body.js';

const refusal = (raw: unknown) => {
  try {
    checkJsonRpcBody(raw);
  } catch (err) {
    return err instanceof ServiceError ? { code: err.code, message: err.message } : err;
  }
  return null;
};

describe('checkJsonRpcBody', () => {
  it('reads one message or a batch and counts the requests and the tool calls among them', () => {
    expect(checkJsonRpcBody({ jsonrpc: '2.0', id: 1, method: 'ping' })).toMatchObject({
      batch: false,
      requests: 1,
      toolCalls: 0,
    });
    expect(
      checkJsonRpcBody([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'svc_threads' } },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ]),
    ).toMatchObject({ requests: 2, toolCalls: 1 });
    const batch = checkJsonRpcBody([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, result: {} },
    ]);
    expect(batch).toMatchObject({ batch: true, requests: 1 });
  });

  it('names what is wrong', () => {
    expect(refusal(undefined)).toMatchObject({ code: 'INVALID_JSON', message: /empty/ });
    expect(refusal([])).toMatchObject({ code: 'INVALID_INPUT', message: /empty batch/ });
    expect(refusal({ jsonrpc: '2.0', id: 1.5, method: 'ping' })).toMatchObject({
      message: /id must be a string or an integer/,
    });
    expect(refusal([{ jsonrpc: '2.0', id: 1, method: 'ping' }, 5])).toMatchObject({ message: /message 1/ });
    expect(refusal({ jsonrpc: '2.0', id: 1, method: 'x', params: [1] })).toMatchObject({
      message: /params must be an object/,
    });
    const tooMany = Array.from({ length: MAX_BATCH + 1 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'ping',
    }));
    expect(refusal(tooMany)).toMatchObject({ message: /at most/ });
    expect(
      refusal([
        { jsonrpc: '2.0', id: 1, method: 'initialize' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]),
    ).toMatchObject({ message: /initialize must be sent alone/ });
  });
});
