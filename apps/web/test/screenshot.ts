// Screenshots that are checked, not just taken: wait for the page's own transitions to finish (no fixed
// sleep), write the PNG, and let the caller assert that the light and dark pictures really differ.
import { writeFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';

/**
 * Resolves once every finite CSS transition and animation on the page has finished (a colour easing
 * after a scheme change). Endless ones (a waiting pulse) never finish, so they are left running.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? 0))
        .map((a) => a.finished.catch(() => undefined)),
    ).then(() => undefined),
  );
}

/** Mean relative luminance (0 black .. 1 white) of a PNG. */
export function meanLuminance(png: Buffer): number {
  const { data, width, height } = PNG.sync.read(png);
  let sum = 0;
  for (let i = 0; i < data.length; i += 4)
    sum += (0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!) / 255;
  return sum / (width * height);
}

/**
 * Takes a screenshot of `target` after the page settled, writes it to `path` and returns the PNG. The
 * picture is at least `minSide` pixels on each side (an empty or collapsed view fails here).
 */
export async function shoot(
  page: Page,
  target: Page | Locator,
  path: string,
  options: { fullPage?: boolean; minSide?: number } = {},
): Promise<Buffer> {
  await settled(page);
  const png =
    'goto' in target
      ? await target.screenshot(options.fullPage ? { fullPage: true } : {})
      : await target.screenshot();
  const { width, height } = PNG.sync.read(png);
  const min = options.minSide ?? 100;
  if (width < min || height < min)
    throw new Error(`screenshot ${path} is ${width}x${height}, expected at least ${min}px a side`);
  writeFileSync(path, png);
  return png;
}
