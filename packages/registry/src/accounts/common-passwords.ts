// New passwords are checked against the 100,000 most common leaked passwords (ADR 0249), kept offline in
// this package (`data/breached-passwords.txt.gz`, made by scripts/build-breached-passwords.mjs), and a
// length rule: a guesser tries these first and the throttles let a few tries through.
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** The shortest new password (sign-up, `svc user add`); sign-in still takes the 8 of older accounts. */
export const MIN_NEW_PASSWORD_LENGTH = 10;

const FILE = 'breached-passwords.txt.gz';
// From dist/ (the published layout) or src/accounts/ (tests run the sources).
const PLACES = [`../data/${FILE}`, `../../data/${FILE}`];

let list: Set<string> | null = null;

/** The list, read once on first use (about 10 ms and a few MB); a missing file is a broken install. */
function breached(): Set<string> {
  if (list) return list;
  const file = PLACES.map((p) => new URL(p, import.meta.url)).find((u) => existsSync(u));
  if (!file) throw new Error(`@screen-service/registry: ${FILE} is missing from the package's data folder.`);
  list = new Set(gunzipSync(readFileSync(file)).toString('utf8').split('\n'));
  list.delete('');
  return list;
}

/**
 * True when the password, or its lowercase, or its lowercase without trailing digits and symbols
 * (`Password123!` → `password123` → `password`), is among the 100,000 most common leaked passwords.
 *
 * @example
 * ```ts
 * isCommonPassword('Password123!'); // true
 * isCommonPassword('correct horse battery'); // false
 * ```
 */
export function isCommonPassword(password: string): boolean {
  const set = breached();
  const lower = password.toLowerCase();
  const candidates = [
    password,
    lower,
    lower.replace(/[^\p{L}]+$/u, ''),
    lower.replace(/[^\p{L}\p{N}]+$/u, ''),
  ];
  return candidates.some((c) => c.length >= 4 && set.has(c));
}
