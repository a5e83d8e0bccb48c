// Client authentication at the token and revocation endpoints (RFC 6749 section 2.3): client_secret_basic,
// client_secret_post, or a public client's bare client_id.
import { OAuthError } from './errors.js';

/** The credentials a request presented, before they are checked against the registered client. */
export interface PresentedClient {
  clientId: string;
  secret: string | null;
  method: 'none' | 'client_secret_post' | 'client_secret_basic';
}

/**
 * Reads client credentials from `Authorization: Basic` or the form body. More than one method at once is
 * refused (RFC 6749 section 2.3).
 *
 * @example
 * ```ts
 * readClientCredentials('Basic ' + btoa('cl_1:s3cret'), {}); // { clientId: 'cl_1', secret: 's3cret', method: 'client_secret_basic' }
 * ```
 */
export function readClientCredentials(
  authorization: string | undefined,
  form: Record<string, unknown>,
): PresentedClient {
  const bodyId = text(form.client_id, 'client_id');
  const bodySecret = text(form.client_secret, 'client_secret');
  if (authorization && /^\s*basic\s/i.test(authorization)) {
    const basic = decodeBasic(authorization);
    if (bodySecret) {
      throw new OAuthError(
        'invalid_request',
        'Send the client secret once: either in the Authorization header or as client_secret, not both.',
      );
    }
    if (bodyId && bodyId !== basic.clientId) {
      throw new OAuthError('invalid_request', 'client_id in the body differs from the one in Authorization.');
    }
    return { ...basic, method: 'client_secret_basic' };
  }
  if (!bodyId) {
    throw new OAuthError(
      'invalid_client',
      'Say which client is asking: send client_id (and the secret, for a confidential client).',
    );
  }
  return bodySecret
    ? { clientId: bodyId, secret: bodySecret, method: 'client_secret_post' }
    : { clientId: bodyId, secret: null, method: 'none' };
}

function text(value: unknown, field: string): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string')
    throw new OAuthError('invalid_request', `${field} must be sent once, as text.`);
  return value;
}

function decodeBasic(header: string): { clientId: string; secret: string } {
  const bad = () =>
    new OAuthError(
      'invalid_client',
      'The Basic credentials are malformed: send base64(url-encoded client_id ":" url-encoded secret).',
    );
  const encoded = header.trim().slice(6).trim();
  if (!/^[A-Za-z0-9+/]+=*$/.test(encoded)) throw bad();
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw bad();
  try {
    const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    const secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    if (!secret) throw bad();
    return { clientId, secret };
  } catch {
    throw bad();
  }
}
