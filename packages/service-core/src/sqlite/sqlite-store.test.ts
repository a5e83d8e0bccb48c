import { openHarness } from '../../test/harness.js';
import { describeStoreConformance } from '../../test/store-conformance.js';

describeStoreConformance('SQLite file', () => openHarness());
