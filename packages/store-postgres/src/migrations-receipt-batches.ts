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
