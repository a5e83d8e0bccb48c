// The environment read one way in every program: each variable a rule (any Standard Schema, e.g. zod),
// empty counts as unset, and the first one that fails is named with its rule's message.
import { EnvError } from './errors.js';

export { EnvError } from './errors.js';

/** The part of the Standard Schema interface (v1, implemented by zod, valibot, arktype) this reader uses. */
export interface StandardRule<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** A rule's verdict: the value it made, or what is wrong. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string }> };

/** The variables' rules, by name. */
export type EnvRules = Record<string, StandardRule>;

/** What the rules make of the set variables; an unset one is absent. */
export type EnvValues<R extends EnvRules> = {
  [K in keyof R]?: R[K] extends StandardRule<infer O> ? O : never;
};

/**
 * Reads the variables that have a rule from `env` (the caller's: a program passes `process.env` once, at its
 * entry). Unset and empty variables are left out; each set one must pass its rule.
 *
 * @throws {Error} `fail(message, name)`'s error (default {@link EnvError}) for the first variable that fails,
 * with the message `NAME: <the rule's message>`.
 * @example
 * ```ts
 * import { z } from 'zod';
 * const env = readEnv(process.env, { PORT: z.string().regex(/^\d+$/, 'must be a whole number, for example 8787').transform(Number) });
 * env.PORT; // 8787 or undefined
 * ```
 */
export function readEnv<const R extends EnvRules>(
  env: Readonly<Record<string, string | undefined>>,
  rules: R,
  fail: (message: string, variable: string) => Error = (message, variable) => new EnvError(message, variable),
): EnvValues<R> {
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(rules)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const result = rule['~standard'].validate(raw);
    if (result instanceof Promise)
      throw new TypeError(
        `readEnv: the rule of ${name} is asynchronous; environment rules must be synchronous`,
      );
    if (result.issues) throw fail(`${name}: ${result.issues[0]?.message ?? 'is not valid'}`, name);
    out[name] = result.value;
  }
  return out as EnvValues<R>;
}
