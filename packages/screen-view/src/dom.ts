// A tiny element builder: no innerHTML anywhere, so agent text can never become markup.

/** Attribute values: `false`/`undefined`/`null` leave the attribute out, `true` sets it empty. */
export type Attrs = Record<string, string | number | boolean | undefined | null>;
/** Children: nodes, text, or nothing. */
export type Child = Node | string | number | false | null | undefined;

const SVG_NS = 'http://www.w3.org/2000/svg';
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

function fill(el: Element, attrs: Attrs, children: Child[]): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
}

/** Builds an HTML element in `doc`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  fill(el, attrs, children);
  return el;
}

/** Builds an SVG element in `doc`. */
export function svg(doc: Document, tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const el = doc.createElementNS(SVG_NS, tag) as SVGElement;
  fill(el, attrs, children);
  return el;
}

/** Builds a MathML element in `doc`. */
export function mathml(doc: Document, tag: string, attrs: Attrs = {}, ...children: Child[]): Element {
  const el = doc.createElementNS(MATHML_NS, tag);
  fill(el, attrs, children);
  return el;
}
