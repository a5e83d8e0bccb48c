import { describe, expect, it } from 'vitest';
import { buildOpenApi } from './openapi.js';
import { API_PREFIX } from './route.js';
import { personRoutes } from './routes/index.js';

const doc = buildOpenApi(personRoutes, { baseUrl: 'https://svc.example', version: '1.2.3' }) as {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown> };
};

describe('buildOpenApi', () => {
  it('lists every route of the table once, under the API prefix', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://svc.example' }]);
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    const want = personRoutes.map((r) => `${r.method} ${API_PREFIX}${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(listed.sort()).toEqual([...want].sort());
    expect(new Set(want).size).toBe(want.length);
  });

  it("documents the answers' idempotency key on taps and typed replies (ADR 0276)", () => {
    for (const name of ['TapRequest', 'SendTextRequest']) {
      const schema = doc.components.schemas[name] as {
        properties: Record<string, { description?: string; pattern?: string }>;
        required?: string[];
      };
      expect(schema.properties.idempotency_key?.description).toMatch(/sent again with the same key/);
      expect(schema.properties.idempotency_key?.pattern).toBe('^[A-Za-z0-9._:~-]{1,128}$');
      expect(schema.required ?? []).not.toContain('idempotency_key');
    }
  });

  it("documents the photo upload's idempotency-key header and its 409 (ADR 0287)", () => {
    const upload = doc.paths[`${API_PREFIX}/agents/{agentId}/photos`]!.post! as {
      parameters: { name: string; in: string; required: boolean; schema: { pattern?: string } }[];
      responses: Record<string, { description: string }>;
    };
    const key = upload.parameters.find((p) => p.in === 'header' && p.name === 'idempotency-key');
    expect(key?.required).toBe(false);
    expect(key?.schema.pattern).toBe('^[A-Za-z0-9._:~-]{1,128}$');
    expect(upload.responses['409']?.description).toMatch(/already used for another photo/);
  });

  it('documents bodies, answers, path parameters and the error shape', () => {
    const rename = doc.paths[`${API_PREFIX}/agents/{agentId}`]!.patch! as {
      parameters: { name: string; in: string }[];
      requestBody: { content: Record<string, { schema: unknown }> };
      responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
      security: unknown;
    };
    expect(rename.parameters).toEqual([expect.objectContaining({ name: 'agentId', in: 'path' })]);
    expect(rename.requestBody.content['application/json']).toBeDefined();
    expect(rename.responses['200']!.content!['application/json']!.schema.$ref).toBe(
      '#/components/schemas/Agent',
    );
    expect(Object.keys(rename.responses)).toEqual(
      expect.arrayContaining(['400', '401', '404', '413', '429']),
    );
    expect(rename.security).toEqual([{ appToken: [] }]);
    expect(doc.components.schemas).toHaveProperty('Error');
    expect(doc.components.schemas).toHaveProperty('Command');
    const photo = doc.paths[`${API_PREFIX}/photos/{photoId}`]!.get! as { security?: unknown };
    expect(photo.security).toBeUndefined();
  });

  it('every $ref points at a schema that exists', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) expect(doc.components.schemas).toHaveProperty(r);
  });
});
