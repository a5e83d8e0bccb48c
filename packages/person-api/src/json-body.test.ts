// The fast JSON body reader against Express's own parser: the same request gives the same answer, the
// request read directly or handed on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { verifyJsonDepth } from '@screen-service/http-kit';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastJsonBody } from './json-body.js';

const LIMIT = 1024;

function serve(parser: RequestHandler): Promise<http.Server> {
  const app = express();
  app.post('/echo', parser, (req, res) => {
    res.json({ body: req.body === undefined ? '(undefined)' : req.body });
  });
  const errors: ErrorRequestHandler = (err, _req, res, _next) => {
    res.status(err.status ?? 500).json({ error: { type: err.type, status: err.status } });
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

function send(server: http.Server, sent: Sent): Promise<{ status: number; body: unknown }> {
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
        await new Promise((r) => setTimeout(r, 5));
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
  return {
    headers: { 'content-type': type, 'content-length': String(bytes), ...extra },
    chunks,
  };
}

const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
const e = Buffer.from('é'); // two bytes, split across chunks below
const cases: [string, Sent][] = [
  ['an object', body(['{"a":1,"b":[true,null,"x"]}'])],
  ['an array', body(['[1,2,3]'])],
  ['a byte-order mark first', body(['\uFEFF{"a":"é"}'])],
  ['only a byte-order mark', body(['\uFEFF'])],
  ['JSON whitespace first', body([' \n\t\r{"a":1}'])],
  ['only whitespace', body(['   '])],
  ['a string (strict)', body(['"text"'])],
  ['a number (strict)', body(['12'])],
  ['null (strict)', body(['null'])],
  ['cut short', body(['{"a":'])],
  ['not JSON', body(['{a:1}'])],
  ['nested too deep', body([deep])],
  ['over the limit', body([JSON.stringify({ pad: 'x'.repeat(LIMIT) })])],
  ['exactly the limit', body([JSON.stringify({ pad: 'x'.repeat(LIMIT - 10) })])],
  ['charset utf-8 in capitals', body(['{"a":1}'], 'application/json; charset=UTF-8')],
  ['charset quoted, no space', body(['{"a":1}'], 'Application/JSON;charset="utf-8"')],
  ['charset utf-16le', body([Buffer.from('{"a":"é"}', 'utf16le')], 'application/json; charset=utf-16le')],
  ['charset latin1', body(['{"a":1}'], 'application/json; charset=latin1')],
  ['text/plain', body(['{"a":1}'], 'text/plain')],
  ['a +json type', body(['{"a":1}'], 'application/merge-patch+json')],
  ['no content type', { headers: { 'content-length': '7' }, chunks: ['{"a":1}'] }],
  ['an empty body', body([])],
  ['gzip', body([gzipSync('{"a":"zipped"}')], 'application/json', { 'content-encoding': 'gzip' })],
  ['chunked', { headers: { 'content-type': 'application/json' }, chunks: ['{"a":', '"chunked"}'] }],
  [
    'a character split across reads',
    body([
      Buffer.concat([Buffer.from('{"a":"'), e.subarray(0, 1)]),
      Buffer.concat([e.subarray(1), Buffer.from('"}')]),
    ]),
  ],
  ['__proto__ as a key', body(['{"__proto__":{"x":1},"y":2}'])],
];

describe('fastJsonBody', () => {
  const verify = verifyJsonDepth(64);
  const parser = express.json({ limit: LIMIT, verify });
  let reads = 0;
  let handedOn = 0;
  let reference: http.Server;
  let fast: http.Server;
  beforeAll(async () => {
    reference = await serve(parser);
    const counted: RequestHandler = (req, res, next) => {
      handedOn++;
      parser(req, res, next);
    };
    const reader = fastJsonBody({ limit: LIMIT, verify, fallback: counted });
    fast = await serve((req, res, next) => {
      reads++;
      reader(req, res, next);
    });
  });
  afterAll(() => {
    reference.close();
    fast.close();
  });

  it.each(cases)('%s: the same answer as express.json()', async (_name, sent) => {
    const want = await send(reference, sent);
    const got = await send(fast, sent);
    expect(got).toEqual(want);
  });

  it('reads the common request itself and hands the others on', async () => {
    const before = { reads, handedOn };
    await send(fast, body(['{"a":1}']));
    await send(fast, body(['{"a":1}'], 'application/json; charset=utf-8'));
    expect(handedOn - before.handedOn).toBe(0);
    await send(fast, body(['{"a":1}'], 'text/plain'));
    await send(fast, body([JSON.stringify({ pad: 'x'.repeat(LIMIT) })]));
    await send(fast, { headers: { 'content-type': 'application/json' }, chunks: ['{}'] });
    expect(handedOn - before.handedOn).toBe(3);
    expect(reads - before.reads).toBe(5);
  });
});
