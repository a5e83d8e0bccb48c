// `svc receipts ...`: check an exported chain of answer receipts offline (ADR 0261), and rotate the key
// that signs new ones (over the data folder, like the other operator commands).
import fs from 'node:fs';
import { verifyReceipts } from '@screen-service/receipts';
import { createServices, type ServerConfig } from '@screen-service/server';
import { openServiceDatabase as openDatabase } from '@screen-service/store-sqlite';
import { CliError, EXIT } from './commands.js';
import { parseOptions } from './options.js';

export const RECEIPTS_HELP = `svc receipts: answers' signed receipts

Usage:
  svc receipts verify FILE --keys JWKS    check an exported thread (JSON Lines) offline
  svc receipts rotate-key                 sign new receipts with a new key (the old one stays published)

FILE is what the person's API (GET .../agents/<id>/receipts) or the management API (action "receipts")
exports: one {"seq", "receipt", "answer"} per line; a receipt of format 2 also carries "v": 2, its "path"
and its "batch" (the signed root of the answers written with it). JWKS is the service's published keys
saved to a file (GET .../svc-app/receipt-keys). verify checks every signature against those keys, that
each format-2 receipt's path leads to its batch's signed root, that the chain has no gap and no altered
link (it may switch format at one receipt), and that each answer as stored is the one that was signed; it
names each problem by line: an altered receipt, path or batch, a deleted receipt, a changed answer, an
answer no longer stored, a key that is not published. Exit codes: 0 every receipt checks, 1 a problem was
found, 2 usage (a file missing or not JSON).`;

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

function readText(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`Cannot read ${what} ${file}: ${(err as Error).message}`, EXIT.USAGE);
  }
}

/** Runs one `svc receipts` command. */
export async function receiptsCommand(argv: string[], config: () => ServerConfig, io: Out): Promise<number> {
  const { values, positionals } = parseOptions(argv, { keys: { type: 'string' } }, 'svc receipts');
  const [sub, file] = positionals;
  if (values.help || sub === undefined || sub === 'help') {
    io.stdout(`${RECEIPTS_HELP}\n`);
    return sub === undefined && !values.help ? EXIT.USAGE : EXIT.OK;
  }
  if (sub === 'rotate-key') {
    const db = openDatabase(config().dataDir);
    try {
      const kid = await createServices(config(), db).receipts.rotateKey();
      io.stdout(`${JSON.stringify({ kid })}\n`);
      return EXIT.OK;
    } finally {
      db.close();
    }
  }
  if (sub !== 'verify') {
    throw new CliError(`Unknown command "receipts ${sub}".\n\n${RECEIPTS_HELP}`, EXIT.USAGE);
  }
  if (!file) throw new CliError(`FILE (the exported receipts) is required.\n\n${RECEIPTS_HELP}`, EXIT.USAGE);
  if (typeof values.keys !== 'string' || values.keys === '') {
    throw new CliError(
      `--keys JWKS (the published keys, saved to a file) is required.\n\n${RECEIPTS_HELP}`,
      EXIT.USAGE,
    );
  }
  let jwks: { keys?: unknown };
  try {
    jwks = JSON.parse(readText(values.keys, 'the keys file')) as { keys?: unknown };
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`The keys file ${values.keys} is not JSON (expected {"keys": [...]}).`, EXIT.USAGE);
  }
  const report = verifyReceipts(readText(file, 'the receipts file'), jwks);
  for (const p of report.problems) {
    io.stdout(`${file}:${p.line}: ${p.seq === null ? '' : `receipt ${p.seq}: `}${p.message}\n`);
  }
  io.stdout(
    `${report.verified} of ${report.receipts} receipts verified${report.problems.length > 0 ? `; ${report.problems.length} problem(s)` : ''}.\n`,
  );
  return report.problems.length > 0 ? EXIT.FAILURE : EXIT.OK;
}
