import { openHarness } from '../../test/harness.js';
import { describeStoreConformance } from '../store-conformance.js';

describeStoreConformance('SQLite file', () => openHarness());
