// The small markdown of `text` lines: **bold**, *italic*, `code`, [label](https://...), headings and - lists.
import { h } from './dom.js';

// Underscores emphasise only outside words, as in CommonMark: `snake_case` and ids such as `agt_1~usr_2` stay
// as written.
const INLINE =
  /\*\*([^*]+)\*\*|(?<![\p{L}\p{N}])__([^_]+)__(?![\p{L}\p{N}])|\*([^*\s][^*]*)\*|(?<![\p{L}\p{N}])_([^_\s][^_]*)_(?![\p{L}\p{N}])|`([^`]+)`|\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/gu;

/** Appends inline markdown to `parent` as text nodes and elements (never as HTML). */
export function appendInline(doc: Document, parent: Element, text: string): void {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    const [, bold, bold2, italic, italic2, code, label, href] = m;
    if (bold !== undefined || bold2 !== undefined) parent.append(h(doc, 'strong', {}, bold ?? bold2));
    else if (italic !== undefined || italic2 !== undefined)
      parent.append(h(doc, 'em', {}, italic ?? italic2));
    else if (code !== undefined) parent.append(h(doc, 'code', {}, code));
    else parent.append(h(doc, 'a', { href, target: '_blank', rel: 'noopener noreferrer' }, label));
    last = m.index + m[0].length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

/**
 * Draws a `text` line's markdown as a block: `# ` headings, `- ` list items and paragraphs split on `\n`.
 *
 * @example
 * ```ts
 * renderMarkdown(document, '**Hi** there'); // <div class="svc-md"><p><strong>Hi</strong> there</p></div>
 * ```
 */
export function renderMarkdown(doc: Document, source: string): HTMLElement {
  const box = h(doc, 'div', { class: 'svc-md' });
  let list: HTMLUListElement | undefined;
  for (const raw of source.replace(/\\n/g, '\n').split('\n')) {
    const line = raw.trim();
    if (line === '') {
      list = undefined;
      continue;
    }
    const item = /^[-*] (.*)$/.exec(line);
    if (item) {
      list ??= box.appendChild(h(doc, 'ul'));
      const li = h(doc, 'li');
      appendInline(doc, li, item[1]!);
      list.append(li);
      continue;
    }
    list = undefined;
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    const el = heading
      ? h(doc, 'p', {
          class: `svc-md-h${heading[1]!.length}`,
          role: 'heading',
          'aria-level': heading[1]!.length + 2,
        })
      : h(doc, 'p');
    appendInline(doc, el, heading ? heading[2]! : line);
    box.append(el);
  }
  return box;
}
