// A nesting limit for JSON bodies, checked on the raw bytes before anything parses or walks them: a
// 100,000-level value would otherwise overflow the stack of whatever recurses over it first.

/** The deepest nesting of arrays and objects any JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * The nesting depth of JSON text (arrays and objects; brackets inside strings do not count), scanning at
 * most until it passes `stopAbove`. Linear, no recursion, no allocation.
 *
 * @example
 * ```ts
 * jsonDepth('{"a":[1,{"b":"[["}]}'); // 3
 * ```
 */
export function jsonDepth(text: string | Uint8Array, stopAbove = Number.POSITIVE_INFINITY): number {
  const bytes = typeof text === 'string' ? null : text;
  const length = bytes ? bytes.length : (text as string).length;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const c = bytes ? bytes[i]! : (text as string).charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Thrown by {@link verifyJsonDepth}; body parsers answer it as a 400 (`type` `entity.too.deep`). */
export class JsonTooDeepError extends Error {
  readonly status = 400;
  readonly type = 'entity.too.deep';
  constructor(readonly maxDepth: number) {
    super(`The body nests deeper than ${maxDepth} levels.`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * The `verify` option of Express's `express.json()`: refuses a body nested deeper than `maxDepth` before
 * it is parsed (mapped to `INVALID_JSON` by `fromBodyParserError`).
 *
 * @example
 * ```ts
 * router.post('/', express.json({ limit: '64kb', verify: verifyJsonDepth() }), handler);
 * ```
 */
export function verifyJsonDepth(
  maxDepth = MAX_JSON_DEPTH,
): (req: unknown, res: unknown, buf: Buffer) => void {
  return (_req, _res, buf) => {
    if (jsonDepth(buf, maxDepth) > maxDepth) throw new JsonTooDeepError(maxDepth);
  };
}
