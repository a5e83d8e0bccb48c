// Keeps a scrolling thread on its newest item (on open, on arrival, when the keyboard or a late-drawing view
// resizes it), unless the person scrolled up to read: then arrivals show a "New" pill instead of moving the list.

/** How far from the end still counts as "at the newest item" (a finger's slack). */
const NEAR_PX = 48;

export interface FollowNewest {
  /** Call after appending items: follows them when pinned (or when the person sent them), else shows the pill. */
  arrived(items: readonly HTMLElement[], mine: boolean): void;
  /** Goes to the newest item and follows it again (the person sent something). */
  toEnd(): void;
  /** True while the list is at its newest item. */
  pinned(): boolean;
  stop(): void;
}

/**
 * Follows the newest item of `list` (a scroll container). `pill` is shown when items arrive while the
 * person reads older ones; clicking it goes to the newest.
 *
 * Only the person's own upward scroll stops the following (ADR 0112): content that grows after layout (a
 * photo decoding, a table or chart drawn from the phone's tables) never moves the list up, so a scroll
 * event that finds the list short of its end because something below grew keeps it pinned, and the
 * resize that follows re-pins it.
 */
export function followNewest(list: HTMLElement, pill: HTMLElement): FollowNewest {
  let pinned = true;
  let lastTop = list.scrollTop;
  const atEnd = () => list.scrollHeight - list.scrollTop - list.clientHeight <= NEAR_PX;

  const toEnd = () => {
    list.scrollTop = list.scrollHeight;
    lastTop = list.scrollTop;
    pinned = true;
    pill.hidden = true;
  };

  list.addEventListener('scroll', () => {
    const top = list.scrollTop;
    if (atEnd()) {
      pinned = true;
      pill.hidden = true;
    } else if (top < lastTop - 1) {
      // Moved up: the person is reading older items (growth below the fold never lowers scrollTop).
      pinned = false;
    }
    lastTop = top;
  });
  pill.addEventListener('click', toEnd);

  // Anything that changes the list's size (a screen drawing its table, a photo decoding, a pill unfolding,
  // the keyboard shrinking the window, the composer's command menu) keeps the newest item in view while pinned.
  const resized = new ResizeObserver(() => {
    if (pinned) toEnd();
  });
  resized.observe(list);
  const viewport = window.visualViewport;
  const root = document.documentElement;
  const onViewport = () => {
    // Where the keyboard only shrinks the visual viewport (iOS), size the app to what is visible; times
    // the pinch-zoom scale, so zooming in does not shrink the layout.
    if (viewport) root.style.setProperty('--app-height', `${Math.round(viewport.height * viewport.scale)}px`);
    if (pinned) toEnd();
  };
  viewport?.addEventListener('resize', onViewport);

  return {
    arrived(items, mine) {
      for (const item of items) resized.observe(item);
      if (mine) toEnd();
      else if (items.length === 0) return;
      else if (pinned) toEnd();
      else pill.hidden = false;
    },
    toEnd,
    pinned: () => pinned,
    stop() {
      resized.disconnect();
      viewport?.removeEventListener('resize', onViewport);
      root.style.removeProperty('--app-height');
    },
  };
}
