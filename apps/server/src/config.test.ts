import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toEqual({
      port: 8787,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:8787',
      dataDir: path.resolve('/srv/app', 'data'),
      logLevel: 'info',
      mcpRate: { burst: 60, perMinute: 30 },
    });
  });

  it('reads the tool server rate bucket from SVC_MCP_RATE_BURST and SVC_MCP_RATE_PER_MINUTE', () => {
    const c = loadConfig({ SVC_MCP_RATE_BURST: '5000', SVC_MCP_RATE_PER_MINUTE: '100000' }, '/x');
    expect(c.mcpRate).toEqual({ burst: 5000, perMinute: 100000 });
    expect(() => loadConfig({ SVC_MCP_RATE_BURST: '0' }, '/x')).toThrow(/SVC_MCP_RATE_BURST/);
  });

  it('derives the base URL from PORT and trims a trailing slash from SVC_BASE_URL', () => {
    expect(loadConfig({ PORT: '9000' }, '/x').baseUrl).toBe('http://localhost:9000');
    expect(loadConfig({ SVC_BASE_URL: 'https://svc.example.com/' }, '/x').baseUrl).toBe(
      'https://svc.example.com',
    );
  });

  it('takes SVC_SECRET when it is long enough', () => {
    expect(loadConfig({ SVC_SECRET: 'k'.repeat(32) }, '/x').secret).toBe('k'.repeat(32));
  });

  it('takes SVC_IMAGE_CDN as a URL template with {prompt}; empty means none', () => {
    const cdn = 'https://image.example/prompt/{prompt}';
    expect(loadConfig({ SVC_IMAGE_CDN: cdn }, '/x').imageCdn).toBe(cdn);
    expect(loadConfig({ SVC_IMAGE_CDN: '' }, '/x')).not.toHaveProperty('imageCdn');
    expect(() => loadConfig({ SVC_IMAGE_CDN: 'https://image.example/' }, '/x')).toThrow(
      /SVC_IMAGE_CDN must be an http\(s\) URL template with \{prompt\}/,
    );
  });

  it('resolves SVC_DATA_DIR against the working directory', () => {
    expect(loadConfig({ SVC_DATA_DIR: 'var/svc' }, '/srv').dataDir).toBe(path.resolve('/srv/var/svc'));
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT: PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT: PORT must be a whole number/],
    [{ SVC_BASE_URL: 'localhost:8787' }, /SVC_BASE_URL/],
    [{ SVC_BASE_URL: 'ftp://x.example' }, /SVC_BASE_URL must start with http/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ SVC_SECRET: 'short' }, /SVC_SECRET must be at least 32 characters/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env, '/x')).toThrow(ConfigError);
    expect(() => loadConfig(env, '/x')).toThrow(message);
  });
});
