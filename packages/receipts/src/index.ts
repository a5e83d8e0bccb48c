// @screen-service/receipts: answers' signed receipts (ADR 0261). Every export here is public API.

export {
  foldPath,
  merklePath,
  merkleRoot,
  type PathStep,
  type ReceiptProof,
  receiptPayload,
  receiptText,
} from './receipt-batches.js';
export { canonicalJson, decodeCompact, sha256 } from './receipt-crypto.js';
export { type ReceiptProblem, type ReceiptReport, verifyReceipts } from './receipt-verify.js';
export {
  type AnswerRow,
  answerOf,
  createReceipts,
  howOf,
  type PresignedReceipt,
  type ReceiptSigner,
  type Receipts,
  type ReceiptsOptions,
  type ReceiptWho,
} from './receipts.js';
