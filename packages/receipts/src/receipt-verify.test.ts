import { describe, expect, it } from 'vitest';
import { canonicalJson, newSigningKey, sha256, signCompact, unsealKey } from './receipt-crypto.js';
import { verifyReceipts } from './receipt-verify.js';

const secret = new TextEncoder().encode('a-service-secret-of-enough-bytes!');

/** A chain of `n` receipts over made-up answers, as an export writes it. */
function chain(n: number, kid: string, key: ReturnType<typeof unsealKey>) {
  const lines: string[] = [];
  let prev: string | null = null;
  for (let seq = 1; seq <= n; seq++) {
    const answer = { id: `msg_${seq}`, body: `[svc] lunch choose choice=Soup ${seq}` };
    const jws = signCompact(key, kid, {
      seq,
      prev,
      answer: { id: answer.id, sha256: sha256(canonicalJson(answer)) },
    });
    lines.push(JSON.stringify({ seq, receipt: jws, answer }));
    prev = sha256(jws);
  }
  return lines;
}

describe('verifyReceipts', () => {
  it('passes a real chain and names each kind of damage by line', () => {
    const made = newSigningKey(secret);
    const key = unsealKey(secret, made.kid, made.sealedPrivate);
    const jwks = { keys: [made.publicJwk] };
    const lines = chain(3, made.kid, key);
    expect(verifyReceipts(lines.join('\n'), jwks)).toEqual({ receipts: 3, verified: 3, problems: [] });
    expect(verifyReceipts([lines[0], lines[2]].join('\n'), jwks).problems).toEqual([
      { line: 2, seq: 3, message: 'receipt 2 is missing from the chain (deleted)' },
    ]);
    const changed = JSON.parse(lines[1]!) as { answer: { body: string } };
    changed.answer.body = changed.answer.body.replace('Soup', 'Soap');
    expect(verifyReceipts([lines[0], JSON.stringify(changed), lines[2]].join('\n'), jwks).problems).toEqual([
      {
        line: 2,
        seq: 2,
        message: 'answer msg_2 differs from what was signed: it was changed after it was recorded',
      },
    ]);
    expect(verifyReceipts(lines.join('\n'), { keys: [] }).problems.map((p) => p.message)).toEqual(
      Array(3).fill(`signed with key "${made.kid}", which is not among the published keys`),
    );
  });

  it('a sealed key opens only with the secret it was sealed with', () => {
    const made = newSigningKey(secret);
    expect(() =>
      unsealKey(new TextEncoder().encode('another secret entirely, 32 byte'), made.kid, made.sealedPrivate),
    ).toThrow();
    expect(made.publicJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: made.kid, alg: 'EdDSA' });
  });
});
