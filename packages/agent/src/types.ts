// The shapes the methods take and give: answers, threads, deadlines, form fields and table rows.

/** One thing the person sent back, as the service returns it (a tap on a screen, or typed text). */
export interface Answer {
  id: string;
  kind: 'tap' | 'text';
  /** The tap line (`[svc] <id> <preset> <key>=<value>` plus the event JSON) or the typed text. */
  text: string;
  screen_id: string | null;
  /** The tap's event (`{id, preset, value, ...}`); null for typed text. */
  event: ({ id: string; preset: string; value: unknown } & Record<string, unknown>) | null;
  /** Signed photo links, valid 1 hour. */
  photos: string[];
  at: string;
}

/** An agent this connection talks as, with the items its person sent that nobody has read yet. */
export interface Thread {
  id: string;
  handle: string;
  name: string;
  color: string;
  is_default: boolean;
  unread: number;
}

/**
 * A step before a deadline (ADR 0260, 0280). `at`: a share of the time (`"50%"`) or a time before the end
 * (`"-2m"`). `remind` buzzes the phone again, `urgent` buzzes it marked urgent; `offer` shows the same ask to
 * holders of this shared agent (`to`: 1 to 10 user ids `usr_...`, or their threads' session keys
 * `<agent_id>~<user_id>`), and the first answer of anyone wins: the wait resolves with it.
 */
export type Escalation =
  | { at: string; do: 'remind' | 'urgent' }
  | { at: string; do: 'offer'; to: readonly string[] };

/**
 * When a screen stops waiting: `at` a time, or `in` seconds from now (the service takes 5 s to 30 days). With `default` the wait resolves with
 * it when the time passes (the service decides it where it supports deadlines); without, it rejects with
 * `DeadlinePassedError`. Either way the screen is withdrawn. `escalate`: up to 5 steps before it.
 */
export type Deadline<A> = ({ at: Date | string } | { in: number }) & {
  default?: A;
  escalate?: readonly Escalation[];
};

/** Options every asking method takes. */
export interface AskOptions<A> {
  /** Ends the wait and withdraws the screen. */
  signal?: AbortSignal;
  /** When to stop waiting, and what the answer is then. */
  deadline?: Deadline<A>;
  /** A chat line shown with the screen. */
  text?: string;
  /** The agent to talk as (handle or id); default: the client's. */
  agent?: string;
  /** Sent to the person when the wait is aborted or its deadline passes; `false` sends nothing. */
  withdrawText?: string | false;
}

/** Field types of a form and what each answers with. */
export interface FieldTypes {
  text: string;
  long: string;
  number: number;
  date: string;
  bool: boolean;
  email: string;
}

/** A form's fields: key → type. Keys are a letter, then letters, digits, `_` or `-`. */
export type FormFields = Readonly<Record<string, keyof FieldTypes>>;

/** A form's answer: each field typed; a field the person left empty is absent. */
export type FormAnswer<F extends FormFields> = { -readonly [K in keyof F]?: FieldTypes[F[K]] };

/** The answer type of `ask` for each `type`. */
export type AskAnswer<T extends keyof FieldTypes> = FieldTypes[T];

/** What a photo screen answers: the signed links (valid 1 hour). */
export interface PhotoAnswer {
  count: number;
  photos: string[];
}

/** A table cell as code holds it. */
export type Cell = string | number | boolean | null;

/** Column types of a table and the cell each holds. */
export interface ColumnTypes {
  text: string;
  number: number;
  date: string;
  bool: boolean;
}

/** A table's columns: name → type. */
export type TableColumns = Readonly<Record<string, keyof ColumnTypes>>;

/** A row of a table with these columns; `key` is the row key. */
export type Row<C extends TableColumns> = { key: string } & {
  -readonly [K in keyof C]: ColumnTypes[C[K]] | null;
};

/** A shown screen: its id and the tap ids its components carry. */
export interface ShownScreen {
  screen_id: string;
  message_id: string;
  tap_ids: string[];
  agent: { id: string; handle: string; name: string };
}
