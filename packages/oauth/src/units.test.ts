import { describe, expect, it } from 'vitest';
import { readClientCredentials } from './client-auth.js';
import { isOAuthError } from './errors.js';
import { isCodeVerifier, s256Challenge, verifierMatches } from './pkce.js';
import { checkRedirectUri, redirectUriMatches } from './redirect-uri.js';
import { readClientMetadata } from './registration.js';
import { sameResource } from './secrets.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return isOAuthError(e) ? `${e.error}: ${e.message}` : String(e);
  }
  return 'accepted';
};

describe('PKCE', () => {
  it('computes the RFC 7636 appendix B challenge and checks verifiers', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(s256Challenge(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifierMatches(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(verifierMatches(`${verifier}x`, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
    expect(isCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)}+`)).toBe(false);
  });
});

describe('redirect URIs', () => {
  it.each([
    ['https://app.example/cb', 'accepted'],
    ['http://127.0.0.1:9/cb', 'accepted'],
    ['http://localhost/cb', 'accepted'],
    ['http://[::1]:8080/cb', 'accepted'],
    ['cursor://anysphere.cursor-retrieval/oauth/callback', 'accepted'],
    ['com.example.app:/oauth2redirect', 'accepted'],
    ['http://example.com/cb', /non-loopback/],
    ['http://127.0.0.1.nip.io/cb', /non-loopback/],
    ['https://app.example/cb#', /fragment/],
    ['https://user:pw@app.example/cb', /credentials/],
    ['data:text/html,hi', /scheme/],
    ['/relative/cb', /absolute/],
  ])('%s', (uri, expected) => {
    const got = refusal(() => checkRedirectUri(uri));
    if (expected === 'accepted') expect(got).toBe('accepted');
    else expect(got).toMatch(expected);
  });

  it('matches exactly, except loopback ports', () => {
    expect(redirectUriMatches('https://a.example/cb', 'https://a.example/cb')).toBe(true);
    expect(redirectUriMatches('https://a.example/cb', 'https://a.example/cb?x=1')).toBe(false);
    expect(redirectUriMatches('https://a.example/cb', 'https://a.example:8443/cb')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1/cb', 'http://127.0.0.1:49152/cb')).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1/cb', 'http://localhost:49152/cb')).toBe(false);
  });

  it('compares resources as URLs, not loosely', () => {
    expect(sameResource('HTTPS://H.example:443/p/mcp', 'https://h.example/p/mcp')).toBe(true);
    expect(sameResource('https://h.example/p/mcp/', 'https://h.example/p/mcp')).toBe(false);
    expect(sameResource('https://h.example/p/mcp#', 'https://h.example/p/mcp')).toBe(false);
    expect(sameResource('not a url', 'https://h.example/p/mcp')).toBe(false);
  });
});

describe('client credentials', () => {
  it('reads Basic (url-encoded parts), post, or a bare client_id', () => {
    const basic = `Basic ${Buffer.from('cl%3A1:s%20ecret').toString('base64')}`;
    expect(readClientCredentials(basic, {})).toEqual({
      clientId: 'cl:1',
      secret: 's ecret',
      method: 'client_secret_basic',
    });
    expect(readClientCredentials(undefined, { client_id: 'c', client_secret: 's' })).toMatchObject({
      method: 'client_secret_post',
    });
    expect(readClientCredentials(undefined, { client_id: 'c' })).toMatchObject({
      method: 'none',
      secret: null,
    });
    expect(refusal(() => readClientCredentials(undefined, {}))).toMatch(/^invalid_client/);
    expect(refusal(() => readClientCredentials('Basic !!!', {}))).toMatch(/^invalid_client: The Basic/);
    expect(refusal(() => readClientCredentials(undefined, { client_id: ['a', 'b'] }))).toMatch(
      /^invalid_request/,
    );
  });
});

describe('registration metadata', () => {
  it('defaults to RFC 7591 client_secret_basic and both grants; keeps descriptive fields', () => {
    const m = readClientMetadata({
      redirect_uris: ['https://a.example/cb'],
      logo_uri: 'https://a.example/l.png',
      foo: 1,
    });
    expect(m).toEqual({
      name: 'An unnamed app',
      authMethod: 'client_secret_basic',
      redirectUris: ['https://a.example/cb'],
      grantTypes: ['authorization_code', 'refresh_token'],
      extra: { logo_uri: 'https://a.example/l.png' },
    });
    expect(refusal(() => readClientMetadata([]))).toMatch(/JSON object/);
    expect(
      refusal(() =>
        readClientMetadata({ redirect_uris: ['https://a.example/cb'], grant_types: ['refresh_token'] }),
      ),
    ).toMatch(/authorization_code/);
    expect(
      refusal(() =>
        readClientMetadata({ redirect_uris: ['https://a.example/cb'], logo_uri: 'http://x.example/l.png' }),
      ),
    ).toMatch(/logo_uri/);
  });
});
