import { ServiceError } from '@screen-service/registry/kernel';
import { describe, expect, it } from 'vitest';
import { RouteTable } from './route-table.js';
import { personRoutes } from './routes/index.js';

// The same shapes as the person's API: a literal next to a parameter, several methods on one path.
const table = new RouteTable([
  { method: 'put', path: '/agents/order', value: 'order' },
  { method: 'get', path: '/agents/:agentId', value: 'agent' },
  { method: 'patch', path: '/agents/:agentId', value: 'rename' },
  { method: 'post', path: '/agents/:agentId/taps', value: 'tap' },
  { method: 'get', path: '/agents', value: 'list' },
  { method: 'get', path: '/agents/:agentId/messages', value: 'page' },
  { method: 'post', path: '/agents/:agentId/messages', value: 'reply' },
]);

describe('RouteTable', () => {
  it('finds the route of the method and path, with its decoded parameters, whatever the query', () => {
    expect(table.match('POST', '/agents/agt_1/taps?x=1')).toEqual({
      kind: 'route',
      value: 'tap',
      params: { agentId: 'agt_1' },
    });
    expect(table.match('GET', '/agents/a%20b')).toMatchObject({ value: 'agent', params: { agentId: 'a b' } });
    expect(table.match('GET', '/agents')).toMatchObject({ value: 'list', params: {} });
  });

  it('matches as Express did: any case, one trailing slash, a parameter is one non-empty segment', () => {
    expect(table.match('POST', '/AGENTS/Agt_1/Taps/')).toMatchObject({
      value: 'tap',
      params: { agentId: 'Agt_1' },
    });
    expect(table.match('POST', '/agents//taps').kind).toBe('none');
    expect(table.match('POST', '/agents/agt_1/taps/more').kind).toBe('none');
    expect(table.match('GET', '/').kind).toBe('none');
    expect(table.match('POST', 'http://svc.example.com/agents/agt_1/taps')).toMatchObject({ value: 'tap' });
  });

  it('gives the first route in table order: a literal listed first wins over a parameter', () => {
    expect(table.match('PUT', '/agents/order')).toMatchObject({ value: 'order' });
    expect(table.match('GET', '/agents/order')).toMatchObject({
      value: 'agent',
      params: { agentId: 'order' },
    });
  });

  it("serves HEAD with a GET route and lists a known path's methods for any other", () => {
    expect(table.match('HEAD', '/agents/agt_1/messages')).toMatchObject({ value: 'page' });
    expect(table.match('DELETE', '/agents/agt_1/messages')).toEqual({
      kind: 'other-methods',
      allow: 'GET, HEAD, POST',
    });
    expect(table.match('OPTIONS', '/agents/order')).toEqual({
      kind: 'other-methods',
      allow: 'GET, HEAD, PATCH, PUT',
    });
  });

  it('refuses a parameter that is not valid percent-encoding with a 400 naming it', () => {
    let thrown: unknown;
    try {
      table.match('POST', '/agents/%E0/taps');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    expect(thrown).toMatchObject({ code: 'INVALID_INPUT', field: 'agentId' });
    expect((thrown as Error).message).toContain('encodeURIComponent');
  });

  it("finds every route of the person's API by its own path (none hidden behind an earlier one)", () => {
    const full = new RouteTable(personRoutes.map((r) => ({ method: r.method, path: r.path, value: r })));
    for (const route of personRoutes) {
      const concrete = route.path.replace(/:(\w+)/g, 'x_$1');
      const found = full.match(route.method.toUpperCase(), concrete);
      const hidden = found.kind === 'route' && found.value !== route;
      // The one allowed shadow is a literal listed before a parameter of the same method (none today).
      expect(hidden ? `${route.method} ${route.path} hidden` : 'found').toBe('found');
    }
  });
});
