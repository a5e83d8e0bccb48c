// The renderer's public option and result types.
import type { Op, PatchOp, QueryProps, TapEvent } from '@screen-service/screen-lines/catalog';
import type { QueryView } from '@screen-service/tables-engine';

/** A tap as the renderer reports it: the catalog event, whether it is quiet, and its tap line and echo. */
export interface ScreenTap {
  event: TapEvent;
  /** Quiet events (timer starting, checklist tick, deck turn) stay on the screen and never reach the agent. */
  quiet: boolean;
  /** `[svc] <id> <preset> <key>=<value>` and the event JSON (what the agent reads). */
  line: string;
  /** The short echo shown under an answered component (`Soup`, `4 / 5`). */
  echo: string;
}

/** What a query component draws: the tables engine's view, or why there is none (shown in its place). */
export interface QueryAnswer {
  view?: QueryView;
  error?: string;
}

/** Options of {@link renderScreen}. */
export interface ScreenViewOptions {
  /** Called for every tap; quiet ones too (the caller decides whether to send them). */
  onTap: (tap: ScreenTap) => void;
  /** The DOM document to build in (default: the global `document`). */
  document?: Document;
  /**
   * The screen id, copied onto every event as `screen`, and the start of every element id the screen makes
   * (`svc-<screen>-<component>-<part>`, with `-2`, `-3`... when the document already drew this screen id), so
   * several screens on one page never share an id, a label or an ARIA reference.
   */
  screen?: string;
  /** Answers a query component from the person's tables; without it a query says tables are not available. */
  query?: (props: QueryProps, id: string) => QueryAnswer;
  /** A `theme` line in the screen: the agent restyles itself. */
  onTheme?: (look: Record<string, unknown>) => void;
  /** Uploads picked photos and returns their links; without it the photo event carries no links. */
  uploadPhotos?: (files: File[], id: string) => Promise<string[]>;
  /** The image URL for `image prompt="..."` (the image-generation CDN); without it a placeholder is drawn. */
  imageFromPrompt?: (prompt: string) => string | undefined;
  /** Taps already made on this screen (for example read back from the thread): drawn as answered. */
  answers?: readonly TapEvent[];
  /** `pill` (default) starts timers and decks folded; `open` unfolds them. */
  staged?: 'pill' | 'open';
  /** Clock in milliseconds (default `Date.now`); tests pass their own. */
  now?: () => number;
}

/** A drawn screen. */
export interface ScreenHandle {
  /** The screen's root element (`<div class="svc-screen">`); put it anywhere in the page. */
  readonly element: HTMLElement;
  /** Applies a patch line to a component of this screen; false when no component has that id. */
  patch(op: PatchOp): boolean;
  /** Draws a component as answered (a tap that arrived from elsewhere, such as the in-chat view). */
  answer(event: TapEvent): boolean;
  /** Redraws every query component (after a put landed or a row changed). */
  refresh(): void;
  /** Stops timers; the element stays where it is. */
  destroy(): void;
}

/** The ops {@link renderScreen} accepts (table, put and drop ops are skipped: the caller runs them). */
export type ScreenOps = readonly Op[];
