// A separate service process for the crash test: `write` shows a screen and dies (SIGKILL) before any push
// leaves; `send` is the restarted service, running only the sender until the parent kills it (it prints
// `sent` once a push settled); `check` runs one pass and prints its report. The last argument picks the
// transport: `thread` (createWebPushTransport) or `pool` (createWorkerPoolTransport).
import { createCore } from '@screen-service/core';
import { coreMigrations, createSqliteStore } from '@screen-service/store-sqlite';
import { runMigrations } from '@screen-service/tables-engine/migrations';
import { fastHasher, seedConnection, seedUser } from '@screen-service/test-kit';
import Database from 'better-sqlite3';
import { createWebPushTransport, createWorkerPoolTransport } from '../dist/index.js';

const [mode, file, a, b, c, kind] = process.argv.slice(2);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('foreign_keys = ON');
runMigrations(db, coreMigrations);
const core = createCore({
  store: createSqliteStore(db),
  hasher: fastHasher,
  secret: new TextEncoder().encode('crash-test-secret-crash-test-secret'),
  urls: 'http://127.0.0.1:1',
  pushEndpoints: { allowLoopback: true },
});

if (mode === 'write') {
  const [endpoint, p256dh, auth] = [a, b, c];
  const user = await seedUser(core.store);
  const conn = await seedConnection(core.store, user.id, ['ada']);
  await core.push.subscribe(user.id, { endpoint, keys: { p256dh, auth }, device: 'phone' });
  const principal = await core.connectionAuth.verify(conn.token);
  // A sender is running, but the process dies right after the write returns, before it can send.
  const sender = core.createPushSender({
    send: () => new Promise(() => {}),
  });
  sender.start();
  await core.threadOps.show(principal, { lines: 'choose@l "Still there?" Yes|No' });
  process.stdout.write('written\n');
  process.kill(process.pid, 'SIGKILL');
} else {
  const vapid = { publicKey: a, privateKey: b, subject: 'mailto:ops@example.com' };
  const transport =
    (c ?? kind) === 'pool'
      ? createWorkerPoolTransport({ vapid, workers: 2, allowLoopback: true })
      : createWebPushTransport({ vapid, allowLoopback: true });
  if (mode === 'check') {
    const report = await core.createPushSender(transport).tick();
    await transport.close();
    process.stdout.write(`report ${JSON.stringify(report)}\n`);
    process.exit(0);
  }
  const sender = core.createPushSender(transport, {
    pollMs: 50,
    onEvent: (e) => e.type === 'sent' && process.stdout.write('sent\n'),
  });
  sender.start();
  process.stdout.write('sending\n');
}
