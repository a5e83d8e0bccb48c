// Public API of @screen-service/screen-view: every export here is public API and follows semver.
export {
  axisOf,
  type ChartSpec,
  drawChart,
  drawSpark,
  formatTick,
  niceStep,
  shortLabel,
  shownLabels,
} from './chart-svg.js';
export { ScreenViewError, type ScreenViewErrorCode } from './errors.js';
export { type LookCssOptions, lookCss, setScheme } from './look-css.js';
export { renderMarkdown } from './markdown.js';
export { DRAWN_COMPONENTS, renderScreen } from './render-screen.js';
export { createStoreQuery, type StoreQuery } from './store-query.js';
export { SCREEN_VIEW_CSS } from './styles.js';
export { texToMathml } from './tex.js';
export type { QueryAnswer, ScreenHandle, ScreenOps, ScreenTap, ScreenViewOptions } from './types.js';
