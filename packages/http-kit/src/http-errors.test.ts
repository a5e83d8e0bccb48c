// A full disk reaches callers as 507 storage_full with a message they can act on, never as a 500.
import { describe, expect, it } from 'vitest';
import { fromStorageError, STORAGE_FULL_MESSAGE, toHttpError } from './http-errors.js';

const sqliteFull = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('fromStorageError', () => {
  it.each([
    ['SQLITE_FULL', sqliteFull],
    ['ENOSPC', enospc],
  ])('turns %s into STORAGE_FULL', (_, err) => {
    expect(fromStorageError(err)).toMatchObject({ code: 'STORAGE_FULL', message: STORAGE_FULL_MESSAGE });
  });

  it('leaves other failures alone', () => {
    expect(fromStorageError(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }))).toBeNull();
    expect(fromStorageError(new Error('boom'))).toBeNull();
    expect(fromStorageError(null)).toBeNull();
  });
});

describe('toHttpError', () => {
  it('answers a full disk with 507 storage_full', () => {
    expect(toHttpError(sqliteFull)).toEqual({
      status: 507,
      code: 'STORAGE_FULL',
      body: { error: 'storage_full', message: STORAGE_FULL_MESSAGE },
    });
  });

  it('still hides anything else behind a 500', () => {
    expect(toHttpError(new Error('secret detail'))).toMatchObject({
      status: 500,
      body: { error: 'internal_error' },
    });
  });
});
