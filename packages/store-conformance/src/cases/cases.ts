// What a case of the Store conformance suite is: a title, the repository methods it covers, and its body.
import type { Store } from '@screen-service/registry/model';

/** One test of the suite: `covers` names each repository method it exercises as `repository.method`. */
export interface ConformanceCase {
  covers: string[];
  title: string;
  run(store: Store): Promise<void>;
}

/** A case (the suite's titles start with the methods covered, so a reader sees what each test pins). */
export function conformanceCase(
  covers: string[],
  title: string,
  run: (store: Store) => Promise<void>,
): ConformanceCase {
  return { covers, title, run };
}

/** The Store's repositories, each named once (the type below fails to compile when one is missing). */
export const REPOSITORIES = [
  'users',
  'sessions',
  'agents',
  'connectors',
  'pairing',
  'threads',
  'photos',
  'oauth',
  'relay',
  'managementTokens',
  'push',
  'nativeAgents',
  'shares',
  'housekeeping',
  'deadlines',
  'receipts',
  'tasks',
] as const satisfies readonly (keyof Store)[];

type Unlisted = Exclude<keyof Store, (typeof REPOSITORIES)[number] | 'transaction'>;
// A repository added to Store and not to the list above leaves this `never`, which `true` cannot be.
const _everyRepositoryListed: [Unlisted] extends [never] ? true : Unlisted = true;
void _everyRepositoryListed;

/**
 * Every method of a store's repositories as `repository.method`, read from the store itself (so a method
 * an implementation has is listed even before the suite knows it), plus `transaction`. The relay's table
 * store (`relay.tables`) is the tables engine's, with a conformance suite of its own.
 */
export function repositoryMethods(store: Store): string[] {
  const out = ['transaction'];
  for (const repo of REPOSITORIES) {
    for (const [method, fn] of Object.entries(store[repo] as object)) {
      if (typeof fn === 'function') out.push(`${repo}.${method}`);
    }
  }
  return out.sort();
}

/** The `repository.method` names a suite's cases cover. */
export function coveredMethods(cases: readonly ConformanceCase[]): Set<string> {
  return new Set(cases.flatMap((c) => c.covers));
}
