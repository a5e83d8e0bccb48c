// Benchmarks of the OAuth package, each against a baseline measured in the same run:
//  1. the tool server's per-call credential check: an OAuth access token vs a pairing connection token;
//  2. the refresh grant over HTTP (rotation: one transaction per call) vs a plain form-post JSON echo;
//  3. the whole sign-in (register, authorize, approve, finish, token) end to end, sequential.
// Server and clients share this process (2-core machine): ratios are what to read, not absolutes.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createPersonAgents } from '@screen-service/registry/agents';
import { createConnectionAuth, createPairing } from '@screen-service/registry/hosts';
import { hashSecret, mintToken, newId } from '@screen-service/registry/kernel';
import { coreMigrations, createSqliteStore } from '@screen-service/store-sqlite';
import Database from 'better-sqlite3';
import express from 'express';
import { createOAuthRouter, createOAuthServer } from '../dist/index.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONCURRENCY = 16;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-oauth-bench-'));
const db = new Database(path.join(dir, 'svc.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
for (const m of coreMigrations) db.exec(m.sql);
const store = createSqliteStore(db);
const pairing = createPairing({ store });
const agents = createPersonAgents({ store, pairing });

const app = express();
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${server.address().port}`;
const urls = {
  baseUrl: base,
  oauthUrl: `${base}/functions/v1/svc-oauth`,
  mcpUrl: `${base}/functions/v1/svc-mcp`,
  connectPageUrl: `${base}/connect`,
};
const oauth = createOAuthServer({ store, agents, urls });
const roomy = { burst: 1e9, perMinute: 1e9 };
app.post('/echo', express.urlencoded({ extended: false }), (req, res) => {
  res.setHeader('cache-control', 'no-store');
  res.json({ echo: req.body.grant_type ?? null, at: Date.now() });
});
app.use(
  '/functions/v1/svc-oauth',
  createOAuthRouter({
    oauth,
    rateLimits: { register: roomy, authorize: roomy, token: roomy, consent: roomy },
  }),
);

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
function post(url, form, headers = {}) {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const get = (url, headers = {}) =>
  new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
      })
      .on('error', reject);
  });
const postJson = (url, json) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(json),
  }).then((r) => r.json());

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (n) => `${n.toFixed(2)} ms`;

/** One full sign-in of a public client for `userId`: returns the client id and first tokens, and its time. */
async function signIn(userId) {
  const t0 = performance.now();
  const redirect = 'http://127.0.0.1:7777/cb';
  const reg = await postJson(`${urls.oauthUrl}/register`, {
    client_name: 'Bench app',
    redirect_uris: [redirect],
    token_endpoint_auth_method: 'none',
  });
  const verifier = randomBytes(32).toString('base64url');
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: reg.client_id,
    redirect_uri: redirect,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: urls.mcpUrl,
    scope: 'svc',
    state: 's',
  });
  const start = await get(`${urls.oauthUrl}/authorize?${q}`);
  const requestId = new URL(start.headers.location).searchParams.get('request');
  const cookie = String(start.headers['set-cookie']).split(';')[0];
  await oauth.decide(userId, requestId, { decision: 'allow' });
  const back = await get(`${urls.oauthUrl}/requests/${requestId}/finish`, { cookie });
  const code = new URL(back.headers.location).searchParams.get('code');
  const tok = await post(`${urls.oauthUrl}/token`, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirect,
    client_id: reg.client_id,
  });
  return { clientId: reg.client_id, tokens: JSON.parse(tok.body), ms: performance.now() - t0 };
}

async function loop(seconds, concurrency, fn) {
  const lat = [];
  let n = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (performance.now() < end) {
        const t = performance.now();
        await fn(w);
        lat.push(performance.now() - t);
        n++;
      }
    }),
  );
  return { perSecond: n / seconds, p50: pct(lat, 50), p99: pct(lat, 99) };
}

const user = await store.users.create({
  id: newId('usr_'),
  email: 'bench@example.com',
  passwordHash: 'x',
  firstName: null,
  createdAt: Date.now(),
  suspendedAt: null,
});

console.log(
  `oauth bench (${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}, ${SECONDS} s per HTTP run)`,
);

// 3 first: it also makes the tokens the other two use.
const flows = [];
for (let i = 0; i < 60; i++) flows.push(await signIn(user.id));
const flowMs = flows.slice(10).map((f) => f.ms);
const tokenOnly = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  await post(`${base}/echo`, { grant_type: 'x' });
  tokenOnly.push(performance.now() - t);
}

// 1. Credential check per tool call.
const token = mintToken('svc_ct_');
const connectorId = newId('con_');
await store.connectors.create({
  id: connectorId,
  userId: user.id,
  name: 'paired',
  kind: 'mcp',
  tokenHash: hashSecret(token),
  createdAt: Date.now(),
  lastSeenAt: Date.now(),
  revokedAt: null,
  suspendedAt: null,
});
const auth = createConnectionAuth({ store, expectKind: 'mcp', resolveAccessToken: oauth.resolveAccessToken });
async function rate(token, n = 20000) {
  for (let i = 0; i < 2000; i++) await auth.verify(token);
  const t = performance.now();
  for (let i = 0; i < n; i++) await auth.verify(token);
  return n / ((performance.now() - t) / 1000);
}
const ct = await rate(token);
const at = await rate(flows[0].tokens.access_token);

// 2. Refresh grant vs echo, CONCURRENCY chains (each chain refreshes its latest token).
const chains = flows
  .slice(0, CONCURRENCY)
  .map((f) => ({ clientId: f.clientId, refresh: f.tokens.refresh_token }));
const echo = await loop(SECONDS, CONCURRENCY, () => post(`${base}/echo`, { grant_type: 'refresh_token' }));
const refresh = await loop(SECONDS, CONCURRENCY, async (w) => {
  const c = chains[w];
  const r = await post(`${urls.oauthUrl}/token`, {
    grant_type: 'refresh_token',
    refresh_token: c.refresh,
    client_id: c.clientId,
  });
  if (r.status !== 200) throw new Error(`refresh: ${r.status} ${r.body}`);
  c.refresh = JSON.parse(r.body).refresh_token;
});

console.log('\n1. credential check per tool call (in process, sequential)');
console.log(`   connection token svc_ct_   ${Math.round(ct).toLocaleString('en')} checks/s (baseline)`);
console.log(
  `   OAuth access token svc_at_ ${Math.round(at).toLocaleString('en')} checks/s  ratio ${(at / ct).toFixed(2)}x`,
);
console.log(`\n2. HTTP at ${CONCURRENCY} connections`);
console.log(
  `   form-post JSON echo        ${Math.round(echo.perSecond).toLocaleString('en')} req/s  p50 ${ms(echo.p50)}  p99 ${ms(echo.p99)} (baseline)`,
);
console.log(
  `   refresh_token grant         ${Math.round(refresh.perSecond).toLocaleString('en')} req/s  p50 ${ms(refresh.p50)}  p99 ${ms(refresh.p99)}  ratio ${(refresh.perSecond / echo.perSecond).toFixed(2)}x`,
);
console.log('\n3. whole sign-in, sequential (register, authorize, approve, finish, token: 5 calls)');
console.log(`   one echo round trip          p50 ${ms(pct(tokenOnly, 50))} (baseline)`);
console.log(
  `   sign-in                      p50 ${ms(pct(flowMs, 50))}  p95 ${ms(pct(flowMs, 95))}  ratio ${(pct(flowMs, 50) / pct(tokenOnly, 50)).toFixed(1)}x one round trip`,
);

server.closeAllConnections();
server.close();
db.close();
fs.rmSync(dir, { recursive: true, force: true });
