// The words the server gives a model: instructions, the svc_guide prompt, tool descriptions, all from guide().
import { guide } from '@screen-service/screen-lines';

/** Every model-facing text the server serves, generated from one Screen Lines guide. */
export interface GuideTexts {
  /** The `instructions` of the initialize answer. */
  instructions: string;
  /** The `svc_guide` prompt: a preamble plus the full guide. */
  prompt: string;
  /** The `svc://guide` resource: a note on fences (none for svc_show), then the full guide. */
  resource: string;
  /** The guide version the texts were built from (`guide().version`). */
  version: string;
  tools: Record<'svc_show' | 'svc_answers' | 'svc_say' | 'svc_threads' | 'svc_tap', string>;
}

/** The tool-server description's label (doc1 "Versioning"): in `serverInfo.title` and the instructions. */
export const SPEC_LABEL = 'spec v4';

/** The one table model (ADR 0250), said once for every text that mentions tables. */
export const TABLES_MODEL = [
  'Each agent has one set of tables, kept by the service for the person:',
  'table lines in a screen (svc_show) and svc_tables write the same tables,',
  "and a query line in a screen draws their rows on every one of the person's devices.",
].join(' ');

const PREAMBLE = [
  "You can put screens on the person's phone through the svc_* tools of this server.",
  'Wherever the guide below says to write a screen block, call svc_show with the lines instead (no code fence);',
  'then wait for what the person sends back with svc_answers(screen_id, wait=25), calling it again until something arrives.',
  TABLES_MODEL,
].join(' ');

// The guide is written for every channel; some have the model write a fenced screen block in its reply.
const RESOURCE_NOTE = [
  'Through this tool server, pass the lines to svc_show as they are: no code fence.',
  'Where the guide below shows a fenced screen block, that fence is for channels where the screen is written into a reply; here the svc_show call replaces it.',
].join(' ');

const AGENT_ARG =
  'agent: the agent handle (e.g. "coach") or id (agt_...) to act as; omit it for the default agent (the first one svc_threads lists).';

/**
 * Builds the texts from `guide()` of @screen-service/screen-lines (or a given guide, for tests).
 *
 * @example
 * ```ts
 * const texts = buildGuideTexts();
 * new McpServer(info, { instructions: texts.instructions });
 * ```
 */
export function buildGuideTexts(g: { text: string; short: string; version: string } = guide()): GuideTexts {
  const short = g.short.trim();
  return {
    version: g.version,
    resource: `${RESOURCE_NOTE}\n\n${g.text}`,
    prompt: `${PREAMBLE}\n\n${g.text}`,
    instructions: [
      `Screen Service tool server (${SPEC_LABEL}).`,
      "Screen Service puts screens (a choice, a timer, a check-in, a form, ...) and chat lines on the person's phone, in one agent's thread.",
      'Use a screen when the person should tap rather than type: a question with set answers, a timer, a checklist, a photo request.',
      'Put one with svc_show (Screen Lines, one component per line), then call svc_answers(screen_id, wait=25) and call it again while it returns nothing: each call holds up to 25 seconds and returns each answer once.',
      'svc_say sends a plain chat line. svc_threads lists the agents this connection serves. The full language is in the svc_guide prompt and the svc://guide resource.',
      '',
      short,
    ].join('\n'),
    tools: {
      svc_show: [
        "Put a screen on the person's phone (and in this chat where the host draws apps). Returns screen_id and the tap ids.",
        "Then wait for the answer with svc_answers(screen_id, wait=25). Lines that do not parse are refused with the parser's message and nothing is sent.",
        'lines: Screen Lines, no code fence. text: an optional chat line shown with the screen.',
        `${TABLES_MODEL} A table line that is refused (a value that does not fit, an unknown table, a limit) is listed in the answer (tables.failed) with its reason and nothing of it is saved; put <table> <key> +delete and table drop wait for the person's Delete / Keep tap.`,
        AGENT_ARG,
        '',
        short,
      ].join('\n'),
      svc_answers: [
        'What the person sent back, oldest first: taps ([svc] <tap_id> <preset> <key>=<value> plus the event JSON), typed text, photos as links valid 1 hour.',
        'Each answer is returned once. screen_id: only items after that screen. wait: seconds (0 to 25) to hold the call open until something arrives; call again to keep waiting.',
        AGENT_ARG,
      ].join('\n'),
      svc_say: ["Send a plain chat line to the person's phone.", AGENT_ARG].join('\n'),
      svc_threads:
        'The agents this connection serves, each with its unread count (answers not yet returned). The first is the default.',
      svc_tap:
        'Only for the in-chat screen view: records a tap on a component of a screen this connection showed. Not for the model.',
    },
  };
}
