import { describe, expect, it } from 'vitest';
import { mintName, mintSecret, mintToken, newId, newTimedId } from './crypto.js';

const fixed = (byte: number) => ({ bytes: (n: number) => new Uint8Array(n).fill(byte) });

describe('newTimedId', () => {
  it('is the prefix, the instant as 9 base-36 digits and the random part of newId', () => {
    const at = Date.UTC(2026, 10, 27, 15, 0, 0, 123);
    const id = newTimedId('msg_', at, fixed(7));
    expect(id).toBe(`msg_${at.toString(36).padStart(9, '0')}${newId('', fixed(7))}`);
    expect(id.length).toBe(newId('msg_', fixed(7)).length + 9);
  });

  it('sorts by instant whatever the random bytes', () => {
    const instants = [
      0,
      1,
      35,
      36,
      1_000,
      Date.UTC(2001, 0, 1),
      Date.UTC(2026, 10, 27),
      Date.UTC(2100, 0, 1),
    ];
    const ids = instants.map((at, i) => newTimedId('scr_', at, fixed(255 - i * 30)));
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps 16 fresh random bytes, so two ids in the same millisecond differ', () => {
    const at = 1_790_000_000_000;
    expect(newTimedId('push_', at)).not.toBe(newTimedId('push_', at));
    expect(newTimedId('push_', at).slice(5 + 9)).toHaveLength(22);
  });

  it('writes instants before 1970, fractional or not finite as a valid id', () => {
    expect(newTimedId('m_', -5, fixed(1)).slice(2, 11)).toBe('000000000');
    expect(newTimedId('m_', Number.NaN, fixed(1)).slice(2, 11)).toBe('000000000');
    expect(newTimedId('m_', 1.9, fixed(1)).slice(2, 11)).toBe('000000001');
  });
});

describe('mintSecret and mintName', () => {
  it('a secret is the prefix and 32 random bytes in base64url; mintToken is one', () => {
    const secret = mintSecret('whsec_', fixed(0xfb));
    expect(secret).toBe(`whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`);
    expect(secret).toHaveLength('whsec_'.length + 43);
    expect(mintToken('svc_ct_', fixed(0xfb))).toBe(`svc_ct_${secret.slice('whsec_'.length)}`);
    expect(mintSecret('x_')).not.toBe(mintSecret('x_'));
  });

  it('a name is lower-case hex of the bytes asked for, safe as an unquoted SQL identifier', () => {
    expect(mintName(6, fixed(0xab))).toBe('abababababab');
    expect(mintName()).toMatch(/^[0-9a-f]{16}$/);
    expect(`svc_test_${mintName(6)}`).toMatch(/^[a-z_][a-z0-9_]*$/);
  });
});
