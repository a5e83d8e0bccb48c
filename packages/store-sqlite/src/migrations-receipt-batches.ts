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

/**
 * Migration 28 (ADR 0308): a batch goes with the last receipt that needs it. `live` counts the receipts that name
 * the batch (written as its leaf count); a trigger on every receipt delete (a thread's deletion, an agent's or
 * an account's cascade) counts one down and deletes the batch at none. Nothing on the tap path changes: the count
 * is written with the batch row, and no index on `batch_id` is added to every commit. Existing batches are
 * counted once, and those no receipt names any more (their threads deleted before this migration) go now.
 */
export const SCHEMA_V28_RECEIPT_BATCH_HOLDERS = `
ALTER TABLE receipt_batches ADD COLUMN live INTEGER NOT NULL DEFAULT 0;
UPDATE receipt_batches SET live = held.n
  FROM (SELECT batch_id, COUNT(*) AS n FROM answer_receipts WHERE batch_id IS NOT NULL GROUP BY batch_id) AS held
  WHERE held.batch_id = receipt_batches.id;
DELETE FROM receipt_batches WHERE live <= 0;
CREATE TRIGGER receipt_batches_release AFTER DELETE ON answer_receipts WHEN old.batch_id IS NOT NULL
BEGIN
  UPDATE receipt_batches SET live = live - 1 WHERE id = old.batch_id;
  DELETE FROM receipt_batches WHERE id = old.batch_id AND live <= 0;
END;
`;
