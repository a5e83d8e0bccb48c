// Entry of `@screen-service/registry/argon2`: the argon2id PasswordHasher. `@node-rs/argon2` is an
// optional peer dependency that only this entry loads.
export { createArgon2idHasher } from './accounts/password-hasher.js';
