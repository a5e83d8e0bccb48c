// Prepares the in-chat view's HTML: the image CDN template and a CSP that loads images only from the allowed origins.

/** The `<meta name>` the view reads its image-CDN URL template from. */
export const IMAGE_CDN_META = 'svc-image-cdn';

/** Thrown at start-up for an image CDN that is not a usable URL template. */
export class ImageCdnError extends Error {
  readonly code = 'INVALID_IMAGE_CDN';
  constructor(message: string) {
    super(message);
    this.name = 'ImageCdnError';
  }
}

/**
 * The origin of an image-CDN URL template (`https://img.example/p/{prompt}` → `https://img.example`);
 * throws {@link ImageCdnError} naming the fix when the template has no `{prompt}` or is not http(s).
 *
 * @example
 * ```ts
 * imageCdnOrigin('https://img.example/p/{prompt}'); // 'https://img.example'
 * ```
 */
export function imageCdnOrigin(template: string): string {
  const example = 'for example https://image.example/prompt/{prompt}';
  if (!template.includes('{prompt}')) {
    throw new ImageCdnError(`The image CDN "${template}" has no {prompt} placeholder; ${example}.`);
  }
  let url: URL;
  try {
    url = new URL(template.replaceAll('{prompt}', 'x'));
  } catch {
    throw new ImageCdnError(`The image CDN "${template}" is not an absolute URL; ${example}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ImageCdnError(`The image CDN "${template}" must start with https:// or http://; ${example}.`);
  }
  return url.origin;
}

const escapeAttr = (v: string) =>
  v.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * The view's HTML with a CSP meta (images only from `resourceDomains` and the CDN, no connections) and,
 * when configured, the CDN template; plus the resource domains the resource's `_meta` lists. The CSP in
 * the page holds even where a host applies none of its own.
 */
export function prepareScreenHtml(app: { html: string; resourceDomains?: string[]; imageCdn?: string }): {
  html: string;
  resourceDomains: string[];
} {
  const domains = [...(app.resourceDomains ?? [])];
  if (app.imageCdn) {
    const origin = imageCdnOrigin(app.imageCdn);
    if (!domains.includes(origin)) domains.push(origin);
  }
  const csp = [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `img-src data: blob: ${domains.join(' ')}`.trim(),
    "connect-src 'none'",
  ].join('; ');
  const head = [
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">`,
    ...(app.imageCdn ? [`<meta name="${IMAGE_CDN_META}" content="${escapeAttr(app.imageCdn)}">`] : []),
  ].join('\n');
  // Right after <head> (or the doctype) so the policy covers everything the page loads.
  const at = /<head[^>]*>/i.exec(app.html) ?? /^<!doctype[^>]*>/i.exec(app.html);
  const cut = at ? at.index + at[0].length : 0;
  const html = `${app.html.slice(0, cut)}\n${head}\n${app.html.slice(cut)}`;
  return { html, resourceDomains: domains };
}
