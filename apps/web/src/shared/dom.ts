// A tiny element builder for the app's own chrome (text is always text, never markup).
export type Attrs = Record<string, string | number | boolean | undefined | null>;
export type Child = Node | string | number | false | null | undefined;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === 'object' ? child : String(child));
  }
  return node;
}

/** Puts `css` in one `<style>` element with this id (replaced on each call). */
export function setStyle(id: string, css: string): void {
  let style = document.getElementById(id) as HTMLStyleElement | null;
  if (!style) {
    style = el('style', { id });
    document.head.append(style);
  }
  style.textContent = css;
}
