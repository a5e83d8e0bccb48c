import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { foldPath, merklePath, merkleRoot } from './receipt-batches.js';
import { newSigningKey, sha256, signCompact, unsealKey } from './receipt-crypto.js';
import { verifyReceipts } from './receipt-verify.js';

const leaves = (n: number) => Array.from({ length: n }, (_, i) => sha256(`leaf ${i}`));

describe('the Merkle tree of a flush (ADR 0294)', () => {
  it('every leaf of trees of 1 to 17 leaves folds along its path to the root, and to no other', () => {
    for (let n = 1; n <= 17; n++) {
      const all = leaves(n);
      const root = merkleRoot(all);
      for (let i = 0; i < n; i++) {
        const path = merklePath(all, i);
        expect(path.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
        expect(foldPath(all[i]!, path)).toBe(root);
        if (n > 1) expect(foldPath(all[(i + 1) % n]!, path)).not.toBe(root);
      }
    }
    // One leaf: the root is the leaf and the path is empty.
    expect(merkleRoot(leaves(1))).toBe(leaves(1)[0]);
    expect(merklePath(leaves(1), 0)).toEqual([]);
  });

  it('an inner node is SHA-256 of 0x01 and its children’s 32 bytes, whatever text the children are', () => {
    const parent = (l: string, r: string) =>
      createHash('sha256')
        .update(Buffer.concat([Buffer.from([1]), Buffer.from(l, 'base64url'), Buffer.from(r, 'base64url')]))
        .digest('base64url');
    const [a, b, c] = leaves(3);
    expect(merkleRoot([a!, b!])).toBe(parent(a!, b!));
    expect(merkleRoot([a!, b!, c!])).toBe(parent(parent(a!, b!), c!));
    // Not a hash's text (a path read from a file): hashed as it decodes, like any other.
    expect(foldPath(a!, [{ right: 'short' }])).toBe(parent(a!, 'short'));
    expect(foldPath(a!, [{ left: `${b!}=` }])).toBe(parent(`${b!}=`, a!));
  });

  it('an inner node is not a leaf: two leaves never hash to their parent as one leaf would', () => {
    const [a, b] = leaves(2);
    expect(merkleRoot([a!, b!])).not.toBe(sha256(a! + b!));
    expect(merkleRoot([a!, b!])).not.toBe(merkleRoot([b!, a!]));
  });

  it('a path that is not a list of {left} / {right} hashes folds to nothing', () => {
    const [a] = leaves(1);
    expect(foldPath(a!, 'x')).toBeNull();
    expect(foldPath(a!, [{ left: 'x', right: 'y' }])).toBeNull();
    expect(foldPath(a!, [{ up: 'x' }])).toBeNull();
    expect(() => merkleRoot([])).toThrow(/at least one leaf/);
  });
});

describe('verifying format 2 without a store', () => {
  it('a batch root passed off as a format-1 receipt is refused by line', () => {
    const secret = new TextEncoder().encode('a-service-secret-of-enough-bytes!');
    const made = newSigningKey(secret);
    const key = unsealKey(secret, made.kid, made.sealedPrivate);
    const root = signCompact(
      key,
      made.kid,
      { v: 2, iss: 'x', root: sha256('r'), iat: 1 },
      'svc-receipt-root+jws',
    );
    expect(verifyReceipts(JSON.stringify({ seq: 1, receipt: root }), { keys: [made.publicJwk] })).toEqual({
      receipts: 1,
      verified: 0,
      problems: [{ line: 1, seq: null, message: 'a batch root on this line, not a receipt' }],
    });
  });
});
