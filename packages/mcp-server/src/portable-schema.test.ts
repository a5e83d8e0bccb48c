import { describe, expect, it } from 'vitest';
import { typeArraysToAnyOf } from './portable-schema.js';

describe('typeArraysToAnyOf', () => {
  it('rewrites type arrays at every depth and leaves single types and property names alone', () => {
    const schema = {
      type: 'object',
      properties: {
        type: { type: 'string' },
        value: {
          anyOf: [{ type: ['string', 'null'] }, { type: 'array', items: { type: ['number', 'boolean'] } }],
        },
      },
      additionalProperties: { type: ['string', 'number'], description: 'kept' },
    };
    expect(typeArraysToAnyOf(schema)).toEqual({
      type: 'object',
      properties: {
        type: { type: 'string' },
        value: {
          anyOf: [
            { anyOf: [{ type: 'string' }, { type: 'null' }] },
            { type: 'array', items: { anyOf: [{ type: 'number' }, { type: 'boolean' }] } },
          ],
        },
      },
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }], description: 'kept' },
    });
    expect(schema.additionalProperties.type).toEqual(['string', 'number']);
  });

  it('keeps an anyOf already beside a type array by requiring both', () => {
    expect(
      typeArraysToAnyOf({ type: ['string', 'number'], anyOf: [{ minLength: 1 }, { minimum: 0 }] }),
    ).toEqual({
      anyOf: [{ minLength: 1 }, { minimum: 0 }],
      allOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }],
    });
  });
});
