// Bundled by record-corpus.mjs: the differential test's generators and fast-check, one module.
export { default as fc } from 'fast-check';
export { input } from '../test/generate.js';
