import { describe, expect, it } from 'vitest';
import { decodeWire, encodeInline, encodeReference, MAX_INLINE_BYTES } from './wire.js';

describe('the NOTIFY payload', () => {
  it('round-trips a small event with its origin', () => {
    const text = encodeInline('i1', { type: 'agents', userId: 'u' });
    expect(text).not.toBeNull();
    expect(decodeWire(text!)).toEqual({ o: 'i1', e: { type: 'agents', userId: 'u' } });
  });

  it('refuses inline anything at or above the limit, counting UTF-8 bytes', () => {
    const chars = Math.floor(MAX_INLINE_BYTES / 2);
    const event = { type: 'decision' as const, userId: 'é'.repeat(chars), requestId: 'r' };
    expect(encodeInline('i1', event)).toBeNull();
    expect(decodeWire(encodeReference('i1', '42'))).toEqual({ o: 'i1', r: '42' });
  });

  it('ignores payloads it did not write', () => {
    expect(decodeWire('not json')).toBeNull();
    expect(decodeWire('{"x":1}')).toBeNull();
    expect(decodeWire('{"o":"i","e":{"type":1}}')).toBeNull();
    expect(decodeWire(undefined)).toBeNull();
  });
});
