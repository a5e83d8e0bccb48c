// Page side of the browser test: draws lines with the real renderer and records every tap on window.taps.
import { parse } from '@screen-service/screen-lines';
import { createMemoryStore, runLines } from '@screen-service/tables-engine';
import { createStoreQuery, lookCss, renderScreen, SCREEN_VIEW_CSS, type ScreenTap } from '../../src/index.js';

declare global {
  interface Window {
    taps: ScreenTap[];
    show(lines: string, tables?: string): Promise<void>;
    /** Draws several screens one under another; the same screen id may come twice (a page's mistake). */
    showScreens(screens: { lines: string; screen: string }[]): void;
  }
}

const ctx = { owner: 'me', agent: 'coach', now: () => Date.now(), timeZone: 'UTC' };
const style = document.createElement('style');
style.textContent = SCREEN_VIEW_CSS + lookCss({ preset: 'ocean' }, { selector: '.svc-root' });
document.head.append(style);
document.body.className = 'svc-root';
window.taps = [];
window.show = async (lines, tables = '') => {
  const store = createMemoryStore();
  if (tables) await runLines(store, { ...ctx, lines: tables });
  const answers = createStoreQuery(store, ctx);
  const { ops } = parse(lines);
  await answers.load(ops);
  const screen = renderScreen(ops, {
    screen: 's1',
    onTap: (tap) => window.taps.push(tap),
    query: answers.query,
    uploadPhotos: async (files) => files.map((f) => `https://svc.test/photos/${f.name}`),
  });
  document.body.replaceChildren(screen.element);
};
window.showScreens = (screens) => {
  (document.querySelector('main') ?? document.body).replaceChildren(
    ...screens.map(
      ({ lines, screen }) =>
        renderScreen(parse(lines).ops, {
          screen,
          onTap: (tap) => window.taps.push(tap),
          uploadPhotos: async (files) => files.map((f) => `https://svc.test/photos/${f.name}`),
        }).element,
    ),
  );
};
