// The error shapes from the one table: a full disk is 507 storage_full, never a 500; each API's spelling;
// the tool server's JSON-RPC errors and OAuth's RFC 6749 errors.

import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ServiceError, type ServiceErrorCode } from '@screen-service/registry/kernel';
import { describe, expect, it } from 'vitest';
import { fromStorageError, STORAGE_FULL_MESSAGE, STORAGE_UNAVAILABLE_MESSAGE } from './error-sources.js';
import { DOC2_CODE_ALIASES, SERVICE_ERROR_CODES } from './error-table.js';
import { DEFAULT_RETRY_AFTER_S, sendHttpError, toHttpError } from './http-errors.js';
import { sendJsonRpcError, toJsonRpcError } from './json-rpc-errors.js';
import { OAUTH_ERROR_STATUS, sendOAuthError, toOAuthError } from './oauth-errors.js';

const sqliteFull = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('fromStorageError', () => {
  it.each([
    ['SQLITE_FULL', sqliteFull],
    ['ENOSPC', enospc],
  ])('turns %s into STORAGE_FULL', (_, err) => {
    expect(fromStorageError(err)).toMatchObject({ code: 'STORAGE_FULL', message: STORAGE_FULL_MESSAGE });
  });

  it.each([
    ['a shutting-down server (57P01)', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    [
      'a starting server (57P03)',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    ['a connection failure (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
    [
      'a refused socket',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
  ])('turns %s into STORAGE_UNAVAILABLE, answered 503 and temporarily_unavailable', (_, err) => {
    expect(fromStorageError(err)).toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
      message: STORAGE_UNAVAILABLE_MESSAGE,
    });
    expect(toHttpError(err)).toMatchObject({ status: 503, body: { error: 'storage_unavailable' } });
    expect(toOAuthError(err)).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable' } });
  });

  it('leaves other failures alone', () => {
    expect(fromStorageError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull();
    expect(fromStorageError(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }))).toBeNull();
    expect(fromStorageError(new Error('boom'))).toBeNull();
    expect(fromStorageError(null)).toBeNull();
  });
});

describe('toHttpError', () => {
  it('answers a full disk with 507 storage_full', () => {
    expect(toHttpError(sqliteFull)).toEqual({
      status: 507,
      code: 'STORAGE_FULL',
      body: { error: 'storage_full', message: STORAGE_FULL_MESSAGE },
    });
  });

  it('answers an undecodable address as bad input, not a 500', () => {
    const decode = Object.assign(new URIError("Failed to decode param '%E0'"), { status: 400 });
    expect(toHttpError(decode)).toMatchObject({
      status: 400,
      body: { error: 'invalid_input', field: 'path' },
    });
    expect(toHttpError(new URIError('thrown by our own code')).status).toBe(500);
  });

  it('still hides anything else behind a 500', () => {
    expect(toHttpError(new Error('secret detail'))).toMatchObject({
      status: 500,
      body: { error: 'internal_error' },
    });
  });
});

describe('the shapes, from one table', () => {
  const input = new ServiceError('INVALID_INPUT', 'commands: must be a list', { field: 'commands' });
  const lines = new ServiceError('INVALID_LINES', 'line 1: unknown', { details: [{ line: 1 }] });

  it('spells codes as each API says', () => {
    expect(toHttpError(input).body).toEqual({
      error: 'invalid_input',
      message: 'commands: must be a list',
      field: 'commands',
    });
    expect(toHttpError(input, { spelling: 'host' }).body.error).toBe('invalid_commands');
    expect(toHttpError(new ServiceError('INVALID_INPUT', 'm'), { spelling: 'host' }).body.error).toBe(
      'invalid_body',
    );
    const added = new ServiceError('PROFILE_ALREADY_ADDED', 'm');
    expect(toHttpError(added, { spelling: 'host' }).body.error).toBe('profile_already_added');
    expect(toHttpError(added, { spelling: 'management' }).body.error).toBe('already_added');
    for (const [code, alias] of Object.entries(DOC2_CODE_ALIASES)) {
      const e = new ServiceError(code as ServiceErrorCode, 'm');
      expect(toHttpError(e, { spelling: 'host' }).body.error).toBe(alias);
      expect(toHttpError(e).body.error).toBe(code.toLowerCase());
    }
    expect(toHttpError(lines).body.details).toEqual([{ line: 1 }]);
  });

  it('maps the same errors to JSON-RPC errors by kind', () => {
    expect(toJsonRpcError(new ServiceError('INVALID_JSON', 'bad')).body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'bad', data: { error: 'invalid_json' } },
    });
    expect(toJsonRpcError(input).body.error).toMatchObject({ code: -32600, data: { field: 'commands' } });
    expect(toJsonRpcError(new ServiceError('BODY_TOO_LARGE', 'm')).status).toBe(413);
    expect(toJsonRpcError(new ServiceError('RATE_LIMITED', 'm')).body.error.code).toBe(-32000);
    const internal = toJsonRpcError(new Error('secret'));
    expect(internal.status).toBe(500);
    expect(internal.body.error).toEqual({
      code: -32603,
      message: 'Something went wrong on our side.',
      data: { error: 'internal_error' },
    });
  });

  it('maps them to RFC 6749 errors for OAuth', () => {
    const oauth = (code: ServiceErrorCode) => toOAuthError(new ServiceError(code, 'why'));
    expect(oauth('INVALID_INPUT')).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'why' },
    });
    expect(oauth('INVALID_OR_EXPIRED_CODE')).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(oauth('RATE_LIMITED')).toMatchObject({ status: 429, body: { error: 'temporarily_unavailable' } });
    expect(oauth('STORAGE_FULL')).toMatchObject({ status: 507, body: { error: 'temporarily_unavailable' } });
    expect(oauth('SUSPENDED')).toMatchObject({ status: 403, body: { error: 'access_denied' } });
    expect(oauth('OAUTH_REQUEST_EXPIRED')).toMatchObject({ status: 410, body: { error: 'invalid_request' } });
    expect(toOAuthError(new Error('secret'))).toEqual({
      status: 500,
      body: { error: 'server_error', error_description: 'Something went wrong on our side; try again.' },
    });
    for (const code of SERVICE_ERROR_CODES) expect(OAUTH_ERROR_STATUS[oauth(code).body.error]).toBeDefined();
  });
});

describe('Retry-After on every 429 (issue 46)', () => {
  const answer = (err: unknown, write: (res: ServerResponse) => void = (res) => sendHttpError(res, err)) => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    res.end = (() => res) as never;
    write(res);
    return { status: res.statusCode, retryAfter: res.getHeader('retry-after') };
  };

  it('carries the error’s own delay, else the default, on every error shape', () => {
    const timed = new ServiceError('TOO_MANY_ATTEMPTS', 'wait', { details: { retryAfterS: 4.2 } });
    const capped = new ServiceError('RATE_LIMITED', 'This account already has 10 live streams open.');
    expect(answer(timed)).toEqual({ status: 429, retryAfter: '5' });
    expect(answer(capped)).toEqual({ status: 429, retryAfter: String(DEFAULT_RETRY_AFTER_S) });
    expect(answer(capped, (res) => sendJsonRpcError(res, capped))).toMatchObject({
      retryAfter: String(DEFAULT_RETRY_AFTER_S),
    });
    expect(answer(capped, (res) => sendOAuthError(res, toOAuthError(capped), capped))).toEqual({
      status: 429,
      retryAfter: String(DEFAULT_RETRY_AFTER_S),
    });
    expect(answer(new ServiceError('CONFLICT', 'taken')).retryAfter).toBeUndefined();
  });
});
