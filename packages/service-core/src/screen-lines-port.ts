// The part of @screen-service/screen-lines the thread operations use (shapes fixed by the contract).

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

/** `parse` and `formatTapLine` as @screen-service/screen-lines exports them. */
export interface ScreenLinesPort {
  parse(text: string, options?: { screen?: string }): ScreenLinesResult;
  formatTapLine(event: {
    id: string;
    preset: string;
    value: unknown;
    screen?: string;
    [k: string]: unknown;
  }): string;
}
