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
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers every answer carries (pages, the API, photos). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': PAGE_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
});

/**
 * Middleware (Express or plain `node:http`) that sets {@link SECURITY_HEADERS} before any route answers.
 * Routes may still override one (a photo adds its own Content-Disposition). The in-chat view is not
 * served by HTTP (it travels as an MCP resource), so the hosts' frames are not affected.
 *
 * @example
 * ```ts
 * app.use(securityHeaders());
 * ```
 */
export function securityHeaders(): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const entries = Object.entries(SECURITY_HEADERS);
  return (_req, res, next) => {
    for (const [name, value] of entries) res.setHeader(name, value);
    next();
  };
}
