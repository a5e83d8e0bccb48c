// The security headers of every answer the service sends: a page policy that fits the app's own bundles
// (external scripts and styles, the tables worker's wasm, theme <style> elements) and forbids framing.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The Content-Security-Policy of the person's pages. Scripts only from the service ('wasm-unsafe-eval' for
 * the tables' SQLite build); styles from the service plus inline ones (agent looks are applied as `<style>`
 * text and chip colours as style attributes); images also from any https address, because screens may show
 * an image URL an agent gave; no plugin, no `<base>`, forms only to the service, and never inside a frame:
 * the approval page must not be clickjacked (doc1 approval flow).
 */
export const PAGE_CSP = pageCsp();

/**
 * {@link PAGE_CSP} with the image CDN's origin (`SVC_IMAGE_CDN`, ADR 0111) added to `img-src`: the phone
 * app draws `image prompt=` from it as the in-chat view does, and an `http:` CDN (a LAN or test one) is
 * not covered by `https:`.
 *
 * @example
 * ```ts
 * pageCsp({ imageCdn: 'http://cdn.lan:8080/p/{prompt}' }); // "... img-src 'self' data: blob: https: http://cdn.lan:8080; ..."
 * ```
 */
export function pageCsp(o: { imageCdn?: string | undefined } = {}): string {
  const cdn = o.imageCdn ? ` ${new URL(o.imageCdn.replaceAll('{prompt}', 'p')).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${cdn}`,
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers every answer carries (pages, the API, photos), with {@link PAGE_CSP}. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(securityHeaderSet());

function securityHeaderSet(o: { imageCdn?: string | undefined } = {}): Record<string, string> {
  return {
    'content-security-policy': pageCsp(o),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

/**
 * Middleware (Express or plain `node:http`) that sets {@link SECURITY_HEADERS} before any route answers
 * (with `imageCdn`, the page policy also lets images come from that CDN's origin).
 * Routes may still override one (a photo adds its own Content-Disposition). The in-chat view is not
 * served by HTTP (it travels as an MCP resource), so the hosts' frames are not affected.
 *
 * @example
 * ```ts
 * app.use(securityHeaders());
 * ```
 */
export function securityHeaders(
  o: { imageCdn?: string | undefined } = {},
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const entries = Object.entries(securityHeaderSet(o));
  return (_req, res, next) => {
    for (const [name, value] of entries) res.setHeader(name, value);
    next();
  };
}
