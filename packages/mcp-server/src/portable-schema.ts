// Rewrites JSON Schema `type` arrays as `anyOf` lists, the form every MCP host's schema reader accepts.

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A copy of `schema` where every `"type": ["string", "number", ...]` is `"anyOf": [{ "type": "string" }, ...]`
 * (keywords beside the array stay on the node). The SDK's zod conversion collapses unions of primitives into
 * type arrays, which some hosts do not read (the Inspector warns about each one as not portable), so the
 * listed tool schemas are rewritten once. Everything else is copied as is.
 *
 * @example
 * ```ts
 * typeArraysToAnyOf({ type: ['string', 'null'] }); // { anyOf: [{ type: 'string' }, { type: 'null' }] }
 * ```
 */
export function typeArraysToAnyOf<T>(schema: T): T {
  return rewrite(schema) as T;
}

function rewrite(node: Json): Json {
  if (Array.isArray(node)) return node.map(rewrite);
  if (!isObject(node)) return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    // Property names are data, not schema keywords: a property called "type" keeps its own schema.
    if (key === 'properties' && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
    } else if (key !== 'type') {
      out[key] = rewrite(value);
    }
  }
  const type = node.type;
  if (Array.isArray(type)) {
    const alternatives = type.map((t) => ({ type: t }));
    // An existing anyOf must hold too: both are required, so they combine with allOf.
    if (Array.isArray(out.anyOf)) {
      out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { anyOf: alternatives }];
    } else {
      out.anyOf = alternatives;
    }
  } else if (type !== undefined) {
    out.type = type;
  }
  return out;
}
