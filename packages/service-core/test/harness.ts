// Test harness: the published test kit (`@screen-service/service-core/testing`), read from source here.
export {
  createTestCore,
  createTestStore as openHarness,
  seedAgent,
  seedConnection,
  seedConnector,
  seedUser,
  type TestStore as Harness,
} from '../src/testing.js';
