// Migration 15: the twin of SQLite's migration 27 (ADR 0294), so both schemas keep step: format 2's batch
// columns on a receipt and the batches table. PostgreSQL still writes format 1 (its writes are not
// group-committed: a batch would hold one leaf), so these stay empty until it signs batches too.

/** `answer_receipts.batch_id`/`batch_index` (null on format 1) and `receipt_batches`, as on SQLite. */
export const RECEIPT_BATCHES_V15 = `
ALTER TABLE answer_receipts ADD COLUMN batch_id BIGINT;
ALTER TABLE answer_receipts ADD COLUMN batch_index INTEGER;
CREATE TABLE receipt_batches (
  id BIGSERIAL PRIMARY KEY,
  kid TEXT NOT NULL,
  root TEXT NOT NULL,
  jws TEXT NOT NULL,
  leaves TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
`;

/**
 * Migration 16: the twin of SQLite's migration 28 (ADR 0308), so both schemas keep step: the count of the
 * receipts that name a batch. PostgreSQL writes no batches yet (format 1 only), so the column stays unused here;
 * when it signs batches, it writes the count with the batch and releases the batch with its last receipt, as
 * SQLite's trigger does.
 */
export const RECEIPT_BATCH_HOLDERS_V16 = `
ALTER TABLE receipt_batches ADD COLUMN live INTEGER NOT NULL DEFAULT 0;
`;
