// The password hashing interface the rules take (the argon2id implementation sits at the /argon2 entry).

/** Hashes and checks passwords. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or a malformed stored hash; never throws for either. */
  verify(stored: string, password: string): Promise<boolean>;
}
