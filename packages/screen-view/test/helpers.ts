// Test helpers: parse lines, draw them into the document and collect the taps.
import { parse } from '@screen-service/screen-lines';
import { renderScreen } from '../src/render-screen.js';
import type { ScreenHandle, ScreenTap, ScreenViewOptions } from '../src/types.js';

export interface Drawn {
  handle: ScreenHandle;
  taps: ScreenTap[];
  el: HTMLElement;
  /** The component element with that id. */
  c(id: string): HTMLElement;
  /** Clicks the button (inside component `id`) whose text is `label`. */
  click(id: string, label: string): void;
}

export function draw(lines: string, options: Partial<ScreenViewOptions> = {}): Drawn {
  const { ops, errors } = parse(lines);
  if (errors.length > 0)
    throw new Error(`test lines do not parse: ${errors.map((e) => e.message).join('; ')}`);
  const taps: ScreenTap[] = [];
  const handle = renderScreen(ops, { onTap: (t) => taps.push(t), ...options });
  document.body.replaceChildren(handle.element);
  const c = (id: string) => {
    const el = handle.element.querySelector<HTMLElement>(`[data-id="${id}"]`);
    if (!el) throw new Error(`no component ${id}`);
    return el;
  };
  return {
    handle,
    taps,
    el: handle.element,
    c,
    click(id, label) {
      const button = [...c(id).querySelectorAll('button')].find((b) => b.textContent?.trim() === label);
      if (!button) throw new Error(`no button ${label} in ${id}`);
      button.click();
    },
  };
}
