// Migration 27: receipts of format 2 (ADR 0294): a flush's receipts are signed once, as the Merkle root over
// their leaves, kept in `receipt_batches`; each receipt row names its batch and its leaf's index.

/**
 * The batch columns of a receipt (null on format 1) and the batches: the root's JWS and the leaves in tree
 * order (a receipt's path is read from them at export). A batch holds no account's data beyond salted leaf
 * hashes, and stays when a thread's receipts go: another thread's receipts of the same flush need its leaves.
 * The id is the rowid (one b-tree, appended to: a text key would add an index, and a page to every commit).
 */
export const SCHEMA_V27_RECEIPT_BATCHES = `
ALTER TABLE answer_receipts ADD COLUMN batch_id INTEGER;
ALTER TABLE answer_receipts ADD COLUMN batch_index INTEGER;
CREATE TABLE receipt_batches (
  id INTEGER PRIMARY KEY,
  kid TEXT NOT NULL,
  root TEXT NOT NULL,
  jws TEXT NOT NULL,
  leaves TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
`;
