import { describe, expect, it } from 'vitest';
import { INVALID_REQUEST, MAX_BATCH, PARSE_ERROR, parseJsonRpcBody } from './json-rpc-body.js';

describe('parseJsonRpcBody', () => {
  it('reads one message or a batch and counts the requests', () => {
    expect(parseJsonRpcBody('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toMatchObject({
      ok: true,
      batch: false,
      requests: 1,
    });
    const batch = parseJsonRpcBody(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 3, result: {} },
      ]),
    );
    expect(batch).toMatchObject({ ok: true, batch: true, requests: 1 });
  });

  it('names what is wrong', () => {
    expect(parseJsonRpcBody('{')).toMatchObject({ ok: false, code: PARSE_ERROR });
    expect(parseJsonRpcBody('[]')).toMatchObject({
      ok: false,
      code: INVALID_REQUEST,
      message: /empty batch/,
    });
    expect(parseJsonRpcBody('{"jsonrpc":"2.0","id":1.5,"method":"ping"}')).toMatchObject({
      ok: false,
      message: /id must be a string or an integer/,
    });
    expect(parseJsonRpcBody('[{"jsonrpc":"2.0","id":1,"method":"ping"},5]')).toMatchObject({
      ok: false,
      message: /message 1/,
    });
    expect(parseJsonRpcBody('{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}')).toMatchObject({
      ok: false,
      message: /params must be an object/,
    });
    const tooMany = JSON.stringify(
      Array.from({ length: MAX_BATCH + 1 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })),
    );
    expect(parseJsonRpcBody(tooMany)).toMatchObject({ ok: false, message: /at most/ });
  });
});
