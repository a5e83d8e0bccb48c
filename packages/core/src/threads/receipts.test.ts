import { decodeCompact, receiptPayload, verifyReceipts } from '@screen-service/receipts';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const LUNCH = 'choose@lunch "Lunch?" Soup|Salad';
let core: TestCore;
let principal: ConnectionPrincipal;
let userId: string;
let agentId: string;

beforeEach(async () => {
  // The worker on (it is off by default): the chain must hold with receipts signed ahead of their writes.
  core = createTestCore({ seed: 41, receiptWorker: true });
  userId = (await seedUser(core.store)).id;
  const { token, agents } = await seedConnection(core.store, userId, ['cook']);
  agentId = agents[0]!.id;
  principal = await core.connectionAuth.verify(token);
});
afterEach(() => core.close());

/** Shows a screen and taps it as the person, `n` times; returns the screens. */
async function answered(n: number) {
  const screens: string[] = [];
  for (let i = 0; i < n; i++) {
    const { screen_id } = await core.threadOps.show(principal, { lines: LUNCH, text: `Round ${i + 1}` });
    await core.threads.tap(
      userId,
      agentId,
      { screen_id, event: { id: 'lunch', value: i % 2 ? 'Salad' : 'Soup' } },
      { session: 'fam_1' },
    );
    screens.push(screen_id);
    core.advance(1000);
  }
  return screens;
}

const messages = (report: ReturnType<typeof verifyReceipts>) =>
  report.problems.map((p) => `line ${p.line}: ${p.message}`);

describe('receipts', () => {
  it('every answer gets a signed receipt chained to the one before; svc_answers returns it', async () => {
    const [first] = await answered(3);
    const { answers } = await core.threadOps.answers(principal, { screen_id: first! });
    const payloads = answers.map((a) => decodeCompact(a.receipt!)!.payload);
    expect(payloads.map((p) => p.seq)).toEqual([1, 2, 3]);
    expect(payloads[0]).toMatchObject({
      v: 1,
      iss: 'http://127.0.0.1',
      prev: null,
      thread: { agent: agentId, user: userId },
      who: { user: userId, session: 'fam_1', device: null },
      how: 'tap',
      decided_by: 'person',
      answer: { id: answers[0]!.id },
      screen: { id: first },
    });
    expect(payloads[1]!.prev).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((payloads[0]!.screen as { sha256: string }).sha256).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The three screens differ only in their chat line: what the person saw is part of each digest.
    const digests = new Set(payloads.map((p) => (p.screen as { sha256: string }).sha256));
    expect(digests.size).toBe(3);
    const file = await core.receipts.exportThread({ agentId, userId });
    const report = verifyReceipts(file, await core.receipts.jwks());
    expect(report).toEqual({ receipts: 3, verified: 3, problems: [] });
  });

  it('verify names a changed answer, a deleted receipt, an altered receipt and an unknown key, by line', async () => {
    await answered(4);
    const key = { agentId, userId };
    const jwks = await core.receipts.jwks();
    // One byte of a stored answer flipped in the database.
    const rows = (await core.inspect.rows('messages', { agent_id: agentId, kind: 'tap' })).sort(
      (a, b) => Number(a.seq) - Number(b.seq),
    );
    const second = rows[1]!;
    const body = String(second.body);
    await core.inspect.update(
      'messages',
      { body: body.replace('Salad', 'Salae') },
      { id: second.id as string },
    );
    let report = verifyReceipts(await core.receipts.exportThread(key), jwks);
    expect(messages(report)).toEqual([
      `line 2: answer ${second.id} differs from what was signed: it was changed after it was recorded`,
    ]);
    await core.inspect.update('messages', { body }, { id: second.id as string });

    // A receipt deleted from the file, and one whose payload was edited.
    const lines = (await core.receipts.exportThread(key)).trimEnd().split('\n');
    const withoutThird = [lines[0], lines[1], lines[3]].join('\n');
    report = verifyReceipts(withoutThird, jwks);
    expect(messages(report)).toEqual(['line 3: receipt 3 is missing from the chain (deleted)']);
    const parsed = JSON.parse(lines[0]!) as { receipt: string };
    const [h, p, s] = parsed.receipt.split('.');
    const edited = Buffer.from(
      Buffer.from(p!, 'base64url').toString().replace('"how":"tap"', '"how":"xap"'),
    ).toString('base64url');
    report = verifyReceipts(
      [JSON.stringify({ ...parsed, receipt: `${h}.${edited}.${s}` }), ...lines.slice(1)].join('\n'),
      jwks,
    );
    expect(report.problems[0]).toMatchObject({
      line: 1,
      message: expect.stringMatching(/signature does not verify .*this receipt was altered/),
    });

    // The key rotates: new answers are signed with the new key; the old key stays published.
    const before = jwks.keys.map((k) => k.kid);
    const kid = await core.receipts.rotateKey();
    await answered(1);
    const file = await core.receipts.exportThread(key);
    expect(verifyReceipts(file, await core.receipts.jwks())).toMatchObject({
      receipts: 5,
      verified: 5,
      problems: [],
    });
    report = verifyReceipts(file, jwks);
    expect(before).not.toContain(kid);
    expect(messages(report)).toEqual([
      `line 5: signed with key "${kid}", which is not among the published keys`,
    ]);
  });

  it('a default decided at the deadline has its receipt, how "default"; receipts go only with the thread', async () => {
    const shown = await core.threadOps.show(principal, {
      lines: LUNCH,
      deadline: { in: '1m', default: { lunch: 'Soup' } },
    });
    core.advance(60_000);
    await core.deadlines.sweep();
    const [decided] = (await core.threadOps.answers(principal, { screen_id: shown.screen_id })).answers;
    expect(receiptPayload(decided!.receipt!)!).toMatchObject({
      how: 'default',
      decided_by: 'default',
      step: 'deadline',
      seq: 1,
    });
    // Retention removes old rows; the receipt stays and says its answer is gone.
    await core.store.housekeeping.deleteMessagesBefore(core.clock() + 1, 1);
    const report = verifyReceipts(
      await core.receipts.exportThread({ agentId, userId }),
      await core.receipts.jwks(),
    );
    expect(messages(report)).toEqual([`line 1: answer ${decided!.id} is no longer stored in the thread`]);
    await core.store.threads.deleteThread({ agentId, userId });
    expect(await core.receipts.exportThread({ agentId, userId })).toBe('');
  });

  it('taps answered at once are signed off the main thread and still chain exactly, around a receipt written in a transaction', async () => {
    const screens = await Promise.all(
      Array.from({ length: 6 }, (_, i) => core.threadOps.show(principal, { lines: LUNCH, text: `Ask ${i}` })),
    );
    const timed = await core.threadOps.show(principal, {
      lines: LUNCH,
      deadline: { in: '1m', default: { lunch: 'Soup' } },
    });
    const tap = (screen_id: string) =>
      core.threads.tap(userId, agentId, { screen_id, event: { id: 'lunch', value: 'Salad' } }, {});
    // Six taps in one turn go to the worker together; the deadline's default, written in a transaction, takes
    // a link of the same chain between them: the taps signed ahead of it are signed again in their writes.
    await Promise.all(screens.slice(0, 3).map((s) => tap(s.screen_id)));
    core.advance(60_000);
    const swept = core.deadlines.sweep();
    await Promise.all([swept, ...screens.slice(3).map((s) => tap(s.screen_id))]);
    await Promise.all(screens.map((s) => tap(s.screen_id)));
    const file = await core.receipts.exportThread({ agentId, userId });
    const report = verifyReceipts(file, await core.receipts.jwks());
    expect(report).toEqual({ receipts: 13, verified: 13, problems: [] });
    const seqs = file
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(seqs).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(timed.screen_id).toBeTruthy();
  });
});
