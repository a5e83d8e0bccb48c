// Passwords of eight or more characters that lead every published list of leaked passwords: refused at
// sign-up, because a guesser tries them first and the throttle lets a few tries through.

const COMMON = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '12345678910',
  '0123456789',
  '87654321',
  '11111111',
  '00000000',
  '88888888',
  '66666666',
  '12341234',
  '11223344',
  '12121212',
  '123123123',
  '1q2w3e4r',
  '1qaz2wsx',
  'password',
  'password1',
  'password12',
  'password123',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'qwertyui',
  'qwertyuiop',
  'qwerty123',
  'qwerty12',
  '1qazxsw2',
  'zaq12wsx',
  'asdfghjk',
  'asdfghjkl',
  'zxcvbnm1',
  'iloveyou',
  'iloveyou1',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'superman',
  'starwars',
  'trustno1',
  'whatever',
  'letmein1',
  'welcome1',
  'welcome123',
  'admin123',
  'administrator',
  'abc12345',
  'abcd1234',
  'abcdefgh',
  'computer',
  'internet',
  'michelle',
  'jennifer',
  'jordan23',
  'liverpool',
  'chocolate',
  'butterfly',
  'changeme',
  'mustang1',
  'master12',
  'monkey12',
  'dragon12',
  'shadow12',
]);

/**
 * True for a password a guesser tries first: one of the most common leaked ones (any case), or one
 * character repeated.
 *
 * @example
 * ```ts
 * isCommonPassword('12345678'); // true
 * isCommonPassword('correct horse battery'); // false
 * ```
 */
export function isCommonPassword(password: string): boolean {
  const p = password.toLowerCase();
  return COMMON.has(p) || /^(.)\1*$/su.test(p);
}
