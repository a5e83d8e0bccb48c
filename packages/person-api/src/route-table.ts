// The person's API's route lookup (ADR 0295): routes bucketed once by method and segment count, matched
// segment by segment in table order, instead of Express walking one layer (and one regexp) per route.
import { ServiceError } from '@screen-service/registry/kernel';

/** One path segment of a route: a literal (compared lower-cased) or a `:name` parameter. */
type Segment = { literal: string } | { param: string };

interface Entry<T> {
  segments: readonly Segment[];
  value: T;
}

/** What {@link RouteTable.match} found for a method and path. */
export type RouteLookup<T> =
  | { kind: 'route'; value: T; params: Record<string, string> }
  /** The path names routes, none of them for this method (`allow`: theirs, sorted, with HEAD for GET). */
  | { kind: 'other-methods'; allow: string }
  | { kind: 'none' };

/**
 * The segments of a path without its query, one trailing slash and the leading slash ('/' has none). An
 * absolute-form target (`http://host/path`, which Express's mount leaves in front of the path) counts
 * from the path after its authority, as Express matched it.
 */
function split(target: string): string[] {
  let path = target;
  if (path.charCodeAt(0) !== 0x2f) {
    const authority = path.indexOf('://');
    const slash = authority === -1 ? -1 : path.indexOf('/', authority + 3);
    path = slash === -1 ? '/' : path.slice(slash);
  }
  let end = path.indexOf('?');
  if (end === -1) end = path.length;
  if (end > 1 && path.charCodeAt(end - 1) === 0x2f) end--;
  const bare = path.slice(1, end);
  return bare === '' ? [] : bare.split('/');
}

function compile(path: string): Segment[] {
  return split(path).map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s.toLowerCase() }));
}

function decodeParam(name: string, raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ServiceError(
      'INVALID_INPUT',
      `${name}: '${raw}' is not a valid percent-encoded path segment; encode it with encodeURIComponent.`,
      { field: name },
    );
  }
}

/**
 * A route table matched as Express 5 matches its routes (paths case-insensitive, one trailing slash
 * optional, a parameter is one non-empty segment, percent-decoded; HEAD served by a GET route; the first
 * route in table order wins), built once so a request costs one bucket lookup and a few string compares.
 *
 * @example
 * ```ts
 * const table = new RouteTable([{ method: 'get', path: '/agents/:agentId', value: 'agent' }]);
 * table.match('GET', '/agents/a_1'); // { kind: 'route', value: 'agent', params: { agentId: 'a_1' } }
 * ```
 */
export class RouteTable<T> {
  /** `METHOD segment-count` → the routes of that method with that many segments, in table order. */
  private readonly buckets = new Map<string, Entry<T>[]>();
  /** Segment count → every route of that length with its method (for OPTIONS and the Allow list). */
  private readonly byLength = new Map<number, { method: string; entry: Entry<T> }[]>();

  constructor(routes: readonly { method: string; path: string; value: T }[]) {
    for (const r of routes) {
      const entry = { segments: compile(r.path), value: r.value };
      const method = r.method.toUpperCase();
      const key = `${method} ${entry.segments.length}`;
      const bucket = this.buckets.get(key) ?? [];
      bucket.push(entry);
      this.buckets.set(key, bucket);
      const same = this.byLength.get(entry.segments.length) ?? [];
      same.push({ method, entry });
      this.byLength.set(entry.segments.length, same);
    }
  }

  /**
   * The route for `method` and `path` (the URL under the mount, query allowed) with its decoded parameters.
   * Throws `INVALID_INPUT` naming the parameter when a matched segment is not valid percent-encoding.
   */
  match(method: string, path: string): RouteLookup<T> {
    const parts = split(path);
    const lower = parts.map((p) => p.toLowerCase());
    const find = (m: string) => this.buckets.get(`${m} ${parts.length}`)?.find((e) => fits(e, lower));
    const found = find(method) ?? (method === 'HEAD' ? find('GET') : undefined);
    if (found) {
      const params: Record<string, string> = {};
      found.segments.forEach((s, i) => {
        if ('param' in s) params[s.param] = decodeParam(s.param, parts[i]!);
      });
      return { kind: 'route', value: found.value, params };
    }
    const methods = new Set<string>();
    for (const { method: m, entry } of this.byLength.get(parts.length) ?? []) {
      if (!fits(entry, lower)) continue;
      methods.add(m);
      if (m === 'GET') methods.add('HEAD');
    }
    return methods.size === 0
      ? { kind: 'none' }
      : { kind: 'other-methods', allow: [...methods].sort().join(', ') };
  }
}

function fits(entry: Entry<unknown>, lower: readonly string[]): boolean {
  const { segments } = entry;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if ('literal' in s ? s.literal !== lower[i] : lower[i] === '') return false;
  }
  return true;
}
