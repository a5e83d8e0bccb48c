// Credentials end at once everywhere: a revoke, by this server or by another process on the same SQLite file
// (`svc`, while the server runs), refuses the very next request, after earlier requests passed (the guard
// for any memory of live sign-ins: ADR 0300 keeps one for the rest of a turn of the event loop only).
// SQLite only: the second connection is the point.
import { createSqliteStore, openServiceDatabase } from '@screen-service/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from './harness.js';

let t: TestServer;
let call: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer();
  call = client(t.base);
});
afterAll(() => t.close());

/** The sign-in family an app access token names (its `sid` claim). */
function familyOf(accessToken: string): string {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8'));
  return payload.sid as string;
}

/** Two requests that pass (what a memory of live sign-ins would have kept). */
async function signedIn(email: string) {
  const person = await signUp(call, email);
  for (let i = 0; i < 2; i++)
    expect((await call('GET', '/agents', { token: person.access_token })).status).toBe(200);
  return person;
}

describe('a revoked sign-in is refused on the very next request', () => {
  it('revoked by another process on the same file', async () => {
    const other = await signedIn('kept@example.com');
    // Last: its sign-in is the one checked most recently before the revoke.
    const person = await signedIn('elsewhere@example.com');
    // What `svc` does while the server runs: its own connection to the data folder's file.
    const db = openServiceDatabase(t.dataDir);
    try {
      await createSqliteStore(db).sessions.revokeFamily(familyOf(person.access_token), Date.now());
    } finally {
      db.close();
    }
    const refused = await call('GET', '/agents', { token: person.access_token });
    expect(refused.status).toBe(401);
    expect(JSON.stringify(refused.body)).toContain('This sign-in has ended');
    // Another person's sign-in is untouched.
    expect((await call('GET', '/agents', { token: other.access_token })).status).toBe(200);
  });

  it('revoked by this server (sign out, and sign out everywhere)', async () => {
    const person = await signedIn('here@example.com');
    expect((await call('POST', '/auth/signout', { token: person.access_token })).status).toBe(204);
    expect((await call('GET', '/agents', { token: person.access_token })).status).toBe(401);
    const second = await signedIn('everywhere@example.com');
    const again = await call('POST', '/auth/signin', {
      body: { email: 'everywhere@example.com', password: 'correct horse battery' },
    });
    expect(again.status).toBe(200);
    expect((await call('GET', '/agents', { token: again.body.access_token })).status).toBe(200);
    expect((await call('POST', '/auth/signout-everywhere', { token: second.access_token })).status).toBe(204);
    expect((await call('GET', '/agents', { token: again.body.access_token })).status).toBe(401);
  });
});
