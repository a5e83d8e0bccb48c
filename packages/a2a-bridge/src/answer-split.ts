// Splitting an answer's text into chat text and a screen (the first fenced `svc` block), for the host API.

/** An answer as the host API's reply takes it. */
export interface SplitAnswer {
  text: string;
  /** Screen Lines of the first fenced `svc` block, when the answer has one. */
  lines?: string;
}

const FENCE = /^\s*```\s*([A-Za-z0-9_-]*)\s*$/;

/**
 * Takes the first fenced `svc` block out of an answer as its screen; the rest stays the chat text. Other
 * fenced blocks (code) stay in the text. Table lines must already be gone (the tables call's `reply`).
 *
 * @example
 * ```ts
 * splitAnswer('Pick one:\n```svc\nchoose@lunch "Lunch?" Pasta|Salad\n```');
 * // { text: 'Pick one:', lines: 'choose@lunch "Lunch?" Pasta|Salad' }
 * ```
 */
export function splitAnswer(answer: string): SplitAnswer {
  const source = answer.split(/\r?\n/);
  const kept: string[] = [];
  let screen: string[] | undefined;
  let inside: 'svc' | 'other' | undefined;
  let block: string[] = [];
  for (const line of source) {
    const fence = FENCE.exec(line);
    if (inside === undefined && fence) {
      inside = fence[1] === 'svc' && screen === undefined ? 'svc' : 'other';
      block = [];
      if (inside === 'other') kept.push(line);
      continue;
    }
    if (inside !== undefined && fence && fence[1] === '') {
      if (inside === 'svc') screen = block;
      else kept.push(line);
      inside = undefined;
      continue;
    }
    if (inside === 'svc') block.push(line);
    else kept.push(line);
  }
  // An unclosed svc block is left as text: the agent did not finish it.
  if (inside === 'svc') kept.push('```svc', ...block);
  const text = kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const lines = screen?.join('\n').trim();
  return lines ? { text, lines } : { text };
}
