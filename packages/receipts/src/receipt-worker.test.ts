// The off-thread signer (ADR 0288): answers asked together are signed in the worker, each thread's chain exact.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeCompact, jwsHeader, sha256, verifyWithJwk } from './receipt-crypto.js';
import { createOffThreadSigner, type OffThreadSigner } from './receipt-worker.js';

let off: OffThreadSigner | undefined;
afterEach(async () => {
  await off?.close();
});

const pair = generateKeyPairSync('ed25519');
const jwk = pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
const item = (n: number) => ({
  payload: { v: 1, jti: `rcp_${n}`, answer: { id: `msg_${n}` } },
  answer: { id: `msg_${n}`, body: `answer ${n}` },
});

describe('the off-thread signer', () => {
  it('signs many answers of two threads at once, each chained in order after its newest link', async () => {
    off = createOffThreadSigner();
    off.setTip('a', { seq: 7, hash: 'h7' });
    off.setTip('b', null);
    const asked = Array.from({ length: 60 }, (_, n) =>
      off!.sign(n % 3 === 0 ? 'b' : 'a', 'k1', pair.privateKey, jwsHeader('k1'), item(n)),
    );
    // More answers while the first batch is in the worker: they follow it.
    const later = await Promise.all(asked.slice(0, 5));
    expect(later.length).toBe(5);
    const more = Array.from({ length: 20 }, (_, n) =>
      off!.sign('a', 'k1', pair.privateKey, jwsHeader('k1'), item(100 + n)),
    );
    const all = await Promise.all([...asked, ...more]);
    for (const thread of ['a', 'b']) {
      const chain = all.filter((_, n) => (n < 60 ? (n % 3 === 0 ? 'b' : 'a') : 'a') === thread);
      let link = thread === 'a' ? { seq: 7, hash: 'h7' } : null;
      for (const r of chain) {
        expect(r.after).toEqual(link);
        const jws = decodeCompact(r.jws)!;
        expect(verifyWithJwk(jwk, jws.input, jws.signature)).toBe(true);
        expect(jws.payload.seq).toBe((link?.seq ?? 0) + 1);
        expect(jws.payload.prev).toBe(link?.hash ?? null);
        expect(r.hash).toBe(sha256(r.jws));
        link = { seq: r.seq, hash: r.hash };
      }
      expect(off.tip(thread)).toEqual(link);
    }
    // The answer's digest is the one the main thread computes.
    const first = decodeCompact(all[1]!.jws)!.payload as { answer: { sha256: string } };
    expect(first.answer.sha256).toBe(sha256(JSON.stringify({ body: 'answer 1', id: 'msg_1' })));
  });

  it('leaves a newer link written meanwhile as the newest (a receipt signed in its write)', async () => {
    off = createOffThreadSigner();
    off.setTip('a', null);
    const signing = off.sign('a', 'k1', pair.privateKey, jwsHeader('k1'), item(1));
    off.setTip('a', { seq: 1, hash: 'written elsewhere' });
    const r = await signing;
    expect(r.after).toBeNull();
    expect(off.tip('a')).toEqual({ seq: 1, hash: 'written elsewhere' });
  });
});
