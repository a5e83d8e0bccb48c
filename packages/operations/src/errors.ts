// Stable error codes of the operator's tools; the CLI maps them to exit codes.

/** Every code the operations package raises. Never renamed once shipped; new ones are appended. */
export type OperationsErrorCode =
  | 'BACKUP_EXISTS'
  | 'BACKUP_INSIDE_DATA_DIR'
  | 'BACKUP_NOT_FOUND'
  | 'INVALID_BACKUP'
  | 'INSTANCE_RUNNING';

/**
 * The one error class of this package: `code` is stable, `message` says what is wrong and the fix.
 *
 * @example
 * ```ts
 * try { await restoreBackup({ file, dataDir }); }
 * catch (e) { if (e instanceof OperationsError && e.code === 'INSTANCE_RUNNING') console.error(e.message); }
 * ```
 */
export class OperationsError extends Error {
  readonly code: OperationsErrorCode;
  constructor(code: OperationsErrorCode, message: string) {
    super(message);
    this.name = 'OperationsError';
    this.code = code;
  }
}
