// The Store contract, written once: every implementation (SQLite, PostgreSQL) runs it (vitest's describe/it).
// Every repository method and `transaction` is pinned by at least one case; a method without one fails the
// suite's last test (ADR 0241).
import type { Store } from '@screen-service/registry/model';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountCases } from './cases/account-cases.js';
import { agentCases } from './cases/agent-cases.js';
import { answerKeyCases } from './cases/answer-key-cases.js';
import { type ConformanceCase, coveredMethods, repositoryMethods } from './cases/cases.js';
import { claimGuardCases } from './cases/claim-guard-cases.js';
import { deadlineCases } from './cases/deadline-cases.js';
import { housekeepingCases } from './cases/housekeeping-cases.js';
import { noticeCases } from './cases/notice-cases.js';
import { oauthCases } from './cases/oauth-cases.js';
import { photoKeyCases } from './cases/photo-key-cases.js';
import { pushCases } from './cases/push-cases.js';
import { readGuardCases } from './cases/read-guard-cases.js';
import { receiptCases } from './cases/receipt-cases.js';
import { registryCases } from './cases/registry-cases.js';
import { relayCases } from './cases/relay-cases.js';
import { shareCases, templateCases } from './cases/share-cases.js';
import { taskCases } from './cases/task-cases.js';
import { threadCases, threadReadCases } from './cases/thread-cases.js';
import { transactionCases } from './cases/transaction-cases.js';

export type { ConformanceCase } from './cases/cases.js';

/** One fresh, empty store for one test of the suite, and how to let it go. */
export interface StoreFixture {
  store: Store;
  close(): void | Promise<void>;
}

/** Every case of the suite, in the order they run. */
export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  ...transactionCases,
  ...accountCases,
  ...agentCases,
  ...registryCases,
  ...threadCases,
  ...threadReadCases,
  ...claimGuardCases,
  ...readGuardCases,
  ...answerKeyCases,
  ...photoKeyCases,
  ...pushCases,
  ...noticeCases,
  ...housekeepingCases,
  ...oauthCases,
  ...shareCases,
  ...templateCases,
  ...relayCases,
  ...deadlineCases,
  ...receiptCases,
  ...taskCases,
];

/**
 * Registers the Store conformance suite (vitest) for one implementation; `open` gives each test an empty store.
 *
 * @example
 * ```ts
 * describeStoreConformance('SQLite file', () => createTestStore());
 * ```
 */
export function describeStoreConformance(
  name: string,
  open: () => StoreFixture | Promise<StoreFixture>,
): void {
  describe(`Store conformance: ${name}`, () => {
    let f: StoreFixture;
    beforeEach(async () => {
      f = await open();
    });
    afterEach(async () => {
      await f.close();
    });

    for (const c of CONFORMANCE_CASES) {
      it(`${c.covers.join(', ')}: ${c.title}`, () => c.run(f.store));
    }

    it('every repository method and transaction has a case', () => {
      const methods = repositoryMethods(f.store);
      const covered = coveredMethods(CONFORMANCE_CASES);
      // On failure: add a case (src/cases/*-cases.ts) whose `covers` names each method listed.
      expect(methods.filter((m) => !covered.has(m))).toEqual([]);
      expect(
        [...covered].filter((m) => !methods.includes(m)),
        'cases name methods the store does not have',
      ).toEqual([]);
    });
  });
}
