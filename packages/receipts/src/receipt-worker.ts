// Signing receipts off the main thread (issue 40's tap path, ADR 0288): answers of one event-loop turn are
// signed together in a worker thread, each thread's receipts chained in order from its newest known link.

import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { ReceiptLink } from '@screen-service/registry/model';
import { sortedJson } from './receipt-crypto.js';

/** A receipt signed ahead of its answer's write, against the link it expects to follow. */
export interface Presigned {
  /** The newest receipt of the thread when this one was signed (null: the first). */
  after: ReceiptLink | null;
  seq: number;
  jws: string;
  hash: string;
}

/** What the worker signs for one receipt: its payload with `seq`, `prev` and the answer's digest left out. */
export interface Unsigned {
  payload: Record<string, unknown>;
  /** The answer as the receipt's `answer.sha256` covers it. */
  answer: Record<string, unknown>;
}

/**
 * The worker's program. `canonical` is canonical JSON's definition (its source is copied in; the main
 * thread's faster path writes the same bytes), so both sign the same bytes. A group is one thread's receipts in chain order: each links to the one before.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { sign, createHash } = require('node:crypto');
const canonical = ${sortedJson.toString()};
const hash = (text) => createHash('sha256').update(text, 'utf8').digest('base64url');
const keys = new Map();
parentPort.on('message', (m) => {
  if (m.key) {
    keys.set(m.kid, { key: m.key, header: m.header });
    return;
  }
  const groups = [];
  for (const g of m.groups) {
    const k = keys.get(g.kid);
    let seq = g.after ? g.after.seq : 0;
    let prev = g.after ? g.after.hash : null;
    const out = [];
    for (const it of g.items) {
      seq += 1;
      const p = it.payload;
      p.seq = seq;
      p.prev = prev;
      p.answer.sha256 = hash(canonical(it.answer));
      const input = k.header + '.' + Buffer.from(canonical(p), 'utf8').toString('base64url');
      const jws = input + '.' + sign(null, Buffer.from(input), k.key).toString('base64url');
      prev = hash(jws);
      out.push({ seq, jws, hash: prev });
    }
    groups.push(out);
  }
  parentPort.postMessage({ id: m.id, groups });
});
`;

interface Waiting {
  thread: string;
  kid: string;
  item: Unsigned;
  resolve: (p: Presigned) => void;
  reject: (e: unknown) => void;
}

interface Group {
  thread: string;
  kid: string;
  after: ReceiptLink | null;
  waiting: Waiting[];
}

/** Signs receipts in a worker thread; the main thread keeps each chain's newest link. */
export interface OffThreadSigner {
  /**
   * Signs `item` as the next receipt of `thread` after the newest link this process knows (`tip`). Answers
   * of the same turn go to the worker together; a thread's receipts are signed in the order asked.
   */
  sign(thread: string, kid: string, key: KeyObject, header: string, item: Unsigned): Promise<Presigned>;
  /** The newest link this process knows of `thread`; undefined: not known (read it from the store). */
  tip(thread: string): ReceiptLink | null | undefined;
  /** Records the thread's newest link (a receipt written, or read from the store). */
  setTip(thread: string, link: ReceiptLink | null): void;
  close(): Promise<void>;
}

/** At most this many threads' newest links are kept (the oldest known goes first). */
const MAX_TIPS = 10_000;

/**
 * Starts the off-thread signer; its worker starts on first use and never holds the process open.
 *
 * @example
 * ```ts
 * const off = createOffThreadSigner();
 * const signed = await off.sign('agt_1|usr_1', kid, key, header, { payload, answer });
 * ```
 */
export function createOffThreadSigner(): OffThreadSigner {
  let worker: Worker | null = null;
  const keysSent = new Set<string>();
  const tips = new Map<string, ReceiptLink | null>();
  let queue: Waiting[] = [];
  let inFlight: { id: number; groups: Group[] } | null = null;
  let nextId = 1;

  const fail = (error: unknown) => {
    const groups = inFlight?.groups ?? [];
    inFlight = null;
    for (const g of groups) for (const w of g.waiting) w.reject(error);
    for (const w of queue) w.reject(error);
    queue = [];
    worker = null;
    keysSent.clear();
  };

  const started = (): Worker => {
    if (worker) return worker;
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.on('message', (m: { id: number; groups: { seq: number; jws: string; hash: string }[][] }) => done(m));
    w.on('error', fail);
    w.on('exit', (code) => {
      if (worker === w) fail(new Error(`the receipt signing worker stopped (exit code ${code})`));
    });
    // After the listeners: adding a 'message' listener refs the worker again.
    w.unref();
    worker = w;
    return w;
  };

  function done(m: { id: number; groups: { seq: number; jws: string; hash: string }[][] }) {
    const flight = inFlight;
    if (!flight || flight.id !== m.id) return;
    inFlight = null;
    flight.groups.forEach((g, i) => {
      const out = m.groups[i]!;
      // The chain moved on only if nobody wrote another link of this thread since (a fallback, another path).
      const newest = out.at(-1);
      if (newest && tips.get(g.thread) === g.after) setTip(g.thread, { seq: newest.seq, hash: newest.hash });
      let after = g.after;
      g.waiting.forEach((w, j) => {
        const r = out[j]!;
        w.resolve({ after, seq: r.seq, jws: r.jws, hash: r.hash });
        after = { seq: r.seq, hash: r.hash };
      });
    });
    dispatch();
  }

  function dispatch() {
    if (inFlight || queue.length === 0) return;
    const batch = queue;
    queue = [];
    const byThread = new Map<string, Group>();
    for (const w of batch) {
      let g = byThread.get(w.thread);
      // A key rotated between two answers of one thread: its later receipts wait for the next batch.
      if (g && g.kid !== w.kid) {
        queue.push(w);
        continue;
      }
      if (!g) {
        g = { thread: w.thread, kid: w.kid, after: tips.get(w.thread) ?? null, waiting: [] };
        byThread.set(w.thread, g);
      }
      g.waiting.push(w);
    }
    const groups = [...byThread.values()];
    const id = nextId++;
    inFlight = { id, groups };
    const payload = groups.map((g) => ({ kid: g.kid, after: g.after, items: g.waiting.map((w) => w.item) }));
    try {
      started().postMessage({ id, groups: payload });
    } catch (error) {
      fail(error);
    }
  }

  function setTip(thread: string, link: ReceiptLink | null) {
    if (!tips.has(thread) && tips.size >= MAX_TIPS) tips.delete(tips.keys().next().value!);
    tips.set(thread, link);
  }

  return {
    sign(thread, kid, key, header, item) {
      return new Promise<Presigned>((resolve, reject) => {
        try {
          const w = started();
          if (!keysSent.has(kid)) {
            w.postMessage({ kid, key, header });
            keysSent.add(kid);
          }
        } catch (error) {
          reject(error);
          return;
        }
        queue.push({ thread, kid, item, resolve, reject });
        dispatch();
      });
    },
    tip: (thread) => tips.get(thread),
    setTip,
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
