// Which approval links a phone cannot open (the consent page warns under the QR code for those).
import { describe, expect, it } from 'vitest';
import { onlyThisComputer } from '../src/connect/reach.js';

describe('onlyThisComputer', () => {
  it.each([
    'http://localhost:8787/#/approve/ar_1',
    'http://app.localhost/#/approve/ar_1',
    'http://127.0.0.1:8787/',
    'http://127.1.2.3/',
    'http://[::1]:8787/',
    'http://0.0.0.0:8787/',
  ])('%s names this computer only', (url) => {
    expect(onlyThisComputer(url)).toBe(true);
  });

  it.each([
    'http://192.168.1.20:8787/#/approve/ar_1',
    'https://svc.example.com/#/approve/ar_1',
    'http://localhost.example.com/',
    'not a url',
  ])('%s is not (or cannot be told)', (url) => {
    expect(onlyThisComputer(url)).toBe(false);
  });
});
