import { describeStoreConformance } from '@screen-service/store-conformance';
import { createTestStore as openHarness } from '@screen-service/test-kit';

describeStoreConformance('SQLite file', () => openHarness());
