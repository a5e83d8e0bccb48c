// What the clients of the fault suite wrote and what they were told: acknowledged, unknown (no answer), seen.

/** Each write carries a unique marker; `acked` ones got a success answer, `unknown` ones got no answer. */
export interface WriteLedger {
  says: { acked: string[]; unknown: string[] };
  replies: { acked: string[]; unknown: string[] };
  /** Screen ids from svc_show answers (the marker is in the lines). */
  screens: { acked: string[]; unknownMarkers: string[] };
  /** Screen ids whose tap the person's API acknowledged (201), or sent without an answer. */
  taps: { acked: string[]; unknown: string[] };
  /** Table row markers (`put`) acknowledged by svc_tables, or sent without an answer. */
  rows: { acked: string[]; unknown: string[] };
  /** What svc_answers returned, in order: `tap:<screen_id>` or `text:<body>`, one entry per returned answer. */
  returned: string[];
  oauth: OAuthLedger[];
}

/** One OAuth client rotating its refresh token. */
export interface OAuthLedger {
  clientId: string;
  /** The newest pair an answer acknowledged. */
  access: string;
  refresh: string;
  rotations: number;
  /** A rotation was sent and no answer came (the kill): the refresh token we hold may be used up. */
  uncertain: boolean;
}

export function createLedger(): WriteLedger {
  return {
    says: { acked: [], unknown: [] },
    replies: { acked: [], unknown: [] },
    screens: { acked: [], unknownMarkers: [] },
    taps: { acked: [], unknown: [] },
    rows: { acked: [], unknown: [] },
    returned: [],
    oauth: [],
  };
}

/** How many times each key occurs. */
export function countKeys(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** The answers an acknowledged person write must produce: one per acked tap and per acked reply. */
export function expectedAnswers(l: WriteLedger): string[] {
  return [...l.taps.acked.map((s) => `tap:${s}`), ...l.replies.acked.map((t) => `text:${t}`)];
}
