// The scripted test agent: what it does for each first word, and what the servers record.

/** One step of the scripted agent. */
export type Step =
  | {
      state:
        | 'working'
        | 'input-required'
        | 'completed'
        | 'failed'
        | 'rejected'
        | 'auth-required'
        | 'canceled';
      text?: string;
    }
  | { artifact: string; append: boolean; artifactId: string }
  | { wait: number }
  | { message: string }
  | { file: string };

/** How long the `auth` script keeps its stream open after asking to sign in. */
export const AUTH_HOLD_MS = 6000;

/** What the script does for a text; `followUp` when the message continues an existing task. */
export function script(text: string, followUp: boolean): Step[] {
  const [word = '', ...rest] = text.trim().split(/\s+/);
  const arg = rest.join(' ');
  if (followUp) {
    // The task opens with its old snapshot (still asking); the agent takes a moment before working.
    return [
      { wait: 80 },
      { state: 'working' },
      { artifact: `Weather in ${text.trim()}: sunny`, append: false, artifactId: 'a1' },
      { state: 'completed' },
    ];
  }
  switch (word) {
    case 'ask':
      return [{ state: 'working' }, { state: 'input-required', text: 'Which city?' }];
    case 'chunks':
      return [
        { state: 'working' },
        { artifact: 'one ', append: false, artifactId: 'c1' },
        { wait: Number(arg) || 20 },
        { artifact: 'two ', append: true, artifactId: 'c1' },
        { wait: Number(arg) || 20 },
        { artifact: 'three', append: true, artifactId: 'c1' },
        { wait: 20 },
        { state: 'completed', text: 'All chunks sent.' },
      ];
    case 'fail':
      return [{ state: 'working' }, { state: 'failed', text: 'the disk is full' }];
    case 'cancel':
      return [{ state: 'working' }, { state: 'canceled', text: 'stopped by its operator' }];
    case 'reject':
      return [{ state: 'rejected', text: 'I only talk about weather' }];
    case 'auth':
      return [
        { state: 'working' },
        { state: 'auth-required', text: 'Sign in at https://auth.example/login' },
        // The stream stays open well past the turn: a bridge that waited for it would take this long.
        { wait: AUTH_HOLD_MS },
      ];
    case 'slow':
      return [
        { state: 'working' },
        { wait: Number(arg) || 1000 },
        { artifact: 'done slowly', append: false, artifactId: 's1' },
        { state: 'completed' },
      ];
    case 'direct':
      return [{ message: `direct: ${arg}` }];
    case 'status':
      return [
        { state: 'working', text: 'thinking' },
        { state: 'completed', text: 'only a status answer' },
      ];
    case 'file':
      return [{ file: 'https://files.example/report.pdf' }, { state: 'completed' }];
    default:
      return [
        { state: 'working' },
        { artifact: `echo: ${text}`, append: false, artifactId: 'e1' },
        { state: 'completed' },
      ];
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a server saw of one message. */
export interface SeenMessage {
  messageId: string;
  taskId: string | undefined;
  contextId: string | undefined;
  texts: string[];
  textMetadata: (Record<string, unknown> | undefined)[];
  data: unknown[];
}

/** What a server saw of one HTTP call. */
export interface SeenCall {
  path: string;
  method: string;
  version: string | undefined;
  extensions: string | undefined;
  body: unknown;
}
