// The one JSON body reader against Express's own parser (the reader it replaced), kind of request by kind:
// the same answer where it reads the request, a clear 415 where it refuses what Express read or skipped.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHttpError } from './http-errors.js';
import { jsonBody, readJsonBody } from './json-body.js';
import { verifyJsonDepth } from './json-depth.js';

const LIMIT = 1024;

function serve(parser: RequestHandler): Promise<http.Server> {
  const app = express();
  app.post('/echo', parser, (req, res) => {
    res.json({ body: req.body === undefined ? '(undefined)' : req.body });
  });
  const errors: ErrorRequestHandler = (err, _req, res, _next) => {
    const wire = toHttpError(err);
    res.status(wire.status).json({ error: wire.body.error });
  };
  app.use(errors);
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

interface Sent {
  headers: Record<string, string>;
  chunks: (string | Buffer)[];
}
type Answer = { status: number; body: unknown };

function send(server: http.Server, sent: Sent): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/echo', headers: sent.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    const write = async () => {
      for (const c of sent.chunks) {
        req.write(c);
        await new Promise((r) => setImmediate(r));
      }
      req.end();
    };
    void write();
  });
}

/** A request with a Content-Length (the bytes of every chunk) and the given type. */
function body(
  chunks: (string | Buffer)[],
  type = 'application/json',
  extra: Record<string, string> = {},
): Sent {
  const bytes = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0);
  return { headers: { 'content-type': type, 'content-length': String(bytes), ...extra }, chunks };
}

const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
const e = Buffer.from('é'); // two bytes, split across chunks below
const unsupported: Answer = { status: 415, body: { error: 'unsupported_media_type' } };
/** `same`: the answer Express's parser gives; otherwise the reader's own answer. */
const cases: [string, Sent, 'same' | Answer][] = [
  ['an object', body(['{"a":1,"b":[true,null,"x"]}']), 'same'],
  ['an array', body(['[1,2,3]']), 'same'],
  ['a byte-order mark first', body(['\uFEFF{"a":"é"}']), 'same'],
  ['only a byte-order mark', body(['\uFEFF']), 'same'],
  ['JSON whitespace first', body([' \n\t\r{"a":1}']), 'same'],
  ['only whitespace', body(['   ']), 'same'],
  ['a string (strict)', body(['"text"']), 'same'],
  ['a number (strict)', body(['12']), 'same'],
  ['null (strict)', body(['null']), 'same'],
  ['cut short', body(['{"a":']), 'same'],
  ['not JSON', body(['{a:1}']), 'same'],
  ['nested too deep', body([deep]), 'same'],
  ['over the limit', body([JSON.stringify({ pad: 'x'.repeat(LIMIT) })]), 'same'],
  ['exactly the limit', body([JSON.stringify({ pad: 'x'.repeat(LIMIT - 10) })]), 'same'],
  ['charset utf-8 in capitals', body(['{"a":1}'], 'application/json; charset=UTF-8'), 'same'],
  ['charset quoted, no space', body(['{"a":1}'], 'Application/JSON;charset="utf-8"'), 'same'],
  // Express decoded UTF-16; the reader asks for UTF-8, as it does for latin1 (which Express refused too).
  [
    'charset utf-16le',
    body([Buffer.from('{"a":"é"}', 'utf16le')], 'application/json; charset=utf-16le'),
    unsupported,
  ],
  ['charset latin1', body(['{"a":1}'], 'application/json; charset=latin1'), 'same'],
  // Express skipped another type (the route then saw no body); the reader names the type to send.
  ['text/plain', body(['{"a":1}'], 'text/plain'), unsupported],
  ['a +json type', body(['{"a":1}'], 'application/merge-patch+json'), unsupported],
  ['no content type', { headers: { 'content-length': '7' }, chunks: ['{"a":1}'] }, unsupported],
  ['an empty body', body([]), 'same'],
  ['no body and no type', { headers: { 'content-length': '0' }, chunks: [] }, 'same'],
  // Express inflated it; the reader asks for it uncompressed (no client of ours compresses a request).
  [
    'gzip',
    body([gzipSync('{"a":"zipped"}')], 'application/json', { 'content-encoding': 'gzip' }),
    unsupported,
  ],
  ['chunked', { headers: { 'content-type': 'application/json' }, chunks: ['{"a":', '"chunked"}'] }, 'same'],
  [
    'chunked, over the limit',
    { headers: { 'content-type': 'application/json' }, chunks: ['{"pad":"', 'x'.repeat(LIMIT), '"}'] },
    'same',
  ],
  [
    'a character split across reads',
    body([
      Buffer.concat([Buffer.from('{"a":"'), e.subarray(0, 1)]),
      Buffer.concat([e.subarray(1), Buffer.from('"}')]),
    ]),
    'same',
  ],
  ['__proto__ as a key', body(['{"__proto__":{"x":1},"y":2}']), 'same'],
];

describe('jsonBody', () => {
  let reference: http.Server;
  let reader: http.Server;
  beforeAll(async () => {
    reference = await serve(express.json({ limit: LIMIT, verify: verifyJsonDepth(64) }));
    reader = await serve(jsonBody({ limit: LIMIT, maxDepth: 64 }) as RequestHandler);
  });
  afterAll(() => {
    reference.close();
    reader.close();
  });

  it.each(cases)('%s', async (_name, sent, want) => {
    const got = await send(reader, sent);
    const express = await send(reference, sent);
    if (want === 'same') expect(got).toEqual(express);
    else {
      expect(got).toEqual(want);
      expect(express).not.toEqual(want); // a real difference, recorded on purpose
    }
  });

  it('names what to send in each refusal', async () => {
    const reasons = await Promise.all(
      (
        [
          [body(['{}'], 'text/plain'), /Content-Type: application\/json/],
          [body(['{}'], 'application/json; charset=latin1'), /UTF-8 \(charset latin1/],
          [body(['{}'], 'application/json', { 'content-encoding': 'br' }), /uncompressed.*br/],
          [body(['x'.repeat(LIMIT + 1)]), /larger than 1 KB/],
          [body([deep]), /deeper than 64 levels/],
          [body(['12']), /must be a JSON object/],
        ] as const
      ).map(async ([sent, message]) => {
        const failed = await direct(sent);
        return [failed, message] as const;
      }),
    );
    for (const [failed, message] of reasons) expect(failed).toMatch(message);
  });

  it('refuses a body that stops before its Content-Length', async () => {
    let seen: unknown;
    let arrived: () => void = () => {};
    const firstBytes = new Promise<void>((resolve) => (arrived = resolve));
    const server = http.createServer((req, res) => {
      req.once('data', () => arrived());
      readJsonBody(req, { limit: LIMIT }).catch((err: unknown) => {
        seen = err;
        res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '100' },
    });
    req.on('error', () => {});
    req.write('{"a":');
    await firstBytes;
    req.destroy();
    await expect.poll(() => (seen as { code?: string } | undefined)?.code).toBe('INVALID_INPUT');
    server.close();
  });
});

/** The refusal's message when the reader reads `sent` on a bare node server. */
async function direct(sent: Sent): Promise<string> {
  const server = http.createServer((req, res) => {
    readJsonBody(req, { limit: LIMIT, maxDepth: 64 }).then(
      () => res.end('read'),
      (err: Error) => res.end(err.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', headers: sent.headers }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      for (const c of sent.chunks) req.write(c);
      req.end();
    });
  } finally {
    server.close();
  }
}
