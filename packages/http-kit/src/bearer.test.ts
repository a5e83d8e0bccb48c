import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer.js';

describe('bearerToken', () => {
  it.each([
    ['Bearer svc_ct_x', 'svc_ct_x'],
    ['bearer svc_ct_x', 'svc_ct_x'],
    ['  BEARER   eyJ.a.b  ', 'eyJ.a.b'],
    ['svc_mt_bare', 'svc_mt_bare'],
    [' svc_ct_bare ', 'svc_ct_bare'],
  ])('reads %j as %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([
    [undefined],
    [null],
    [''],
    ['Bearer'],
    ['Bearer '],
    ['Bearer a b'],
    ['Basic dXNlcjpwdw=='],
    ['not_a_service_token'],
    ['svc_ct_a svc_ct_b'],
    [['Bearer svc_ct_x', 'Bearer svc_ct_y']],
  ])('finds no token in %j', (header) => {
    expect(bearerToken(header as string | undefined)).toBeNull();
  });
});
