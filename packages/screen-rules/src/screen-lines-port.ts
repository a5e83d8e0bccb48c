// The part of @screen-service/screen-lines the thread operations use (shapes fixed by the contract).
import { formatEcho, formatTapLine, parse } from '@screen-service/screen-lines';

export interface ScreenLinesError {
  code: string;
  line: number;
  column: number;
  message: string;
}

export interface ScreenLinesResult {
  ops: unknown[];
  errors: ScreenLinesError[];
  spans: { line: number; text: string }[];
}

type TapEventLike = { id: string; preset: string; value: unknown; screen?: string; [k: string]: unknown };

/** `parse`, `formatTapLine` and `formatEcho` as @screen-service/screen-lines exports them. */
export interface ScreenLinesPort {
  parse(text: string, options?: { screen?: string }): ScreenLinesResult;
  formatTapLine(event: TapEventLike): string;
  formatEcho(event: TapEventLike): string;
}

/** The real parser and tap-line printer; the thread operations use it unless given another. */
export const defaultScreenLines: ScreenLinesPort = { parse, formatTapLine, formatEcho };
