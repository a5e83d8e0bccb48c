// The relay's tests run against the real built server, with the same harness as the agent SDK's tests.
export * from '../../../apps/server/test/service-process.js';
