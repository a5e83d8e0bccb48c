// What every OAuth rule works with: the store, the addresses, the clock and the wake-ups of waiting pages.

import type { PersonAgents } from '@screen-service/registry/agents';
import type { Notifier, Random } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import type { ClientMetadataDocuments } from './client-metadata-document.js';
import type { DecisionWaits } from './decision-waits.js';
import type { OAuthUrls } from './metadata.js';

export interface OAuthContext {
  store: Store;
  /** Creates the new agent an approval asks for (named after the client). */
  agents: Pick<PersonAgents, 'create' | 'delete'>;
  notifier: Notifier | undefined;
  urls: OAuthUrls;
  now: () => number;
  newId: (prefix: string) => string;
  /** Where secrets, codes and tokens come from (the registry's `systemRandom` unless a test seeds one). */
  random: Random;
  waits: DecisionWaits;
  /** Resolves client_ids that are metadata document URLs; undefined when the server takes none. */
  documents: ClientMetadataDocuments | undefined;
}
