import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveBaseUrl } from '@screen-service/operations';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('loadConfig', () => {
  it('uses the documented defaults (data in <repository root>/data)', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toEqual({
      port: 8787,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:8787',
      dataDir: path.join(repositoryRoot, 'data'),
      logLevel: 'info',
      logFormat: 'auto',
      signup: 'open',
      mcpRate: { burst: 60, perMinute: 30 },
      guards: {},
    });
  });

  it('reads the operator settings SVC_SIGNUP, SVC_METRICS_TOKEN, SVC_MESSAGES_PER_THREAD and LOG_FORMAT', () => {
    const c = loadConfig(
      {
        SVC_SIGNUP: 'closed',
        SVC_METRICS_TOKEN: 't'.repeat(24),
        SVC_MESSAGES_PER_THREAD: '5000',
        LOG_FORMAT: 'json',
      },
      '/x',
    );
    expect(c).toMatchObject({
      signup: 'closed',
      metricsToken: 't'.repeat(24),
      messagesPerThread: 5000,
      logFormat: 'json',
    });
    expect(() => loadConfig({ SVC_SIGNUP: 'maybe' }, '/x')).toThrow(
      /^SVC_SIGNUP: SVC_SIGNUP must be open or closed/,
    );
    expect(() => loadConfig({ SVC_METRICS_TOKEN: 'short' }, '/x')).toThrow(
      /SVC_METRICS_TOKEN must be at least 16/,
    );
    expect(() => loadConfig({ SVC_MESSAGES_PER_THREAD: '0' }, '/x')).toThrow(/SVC_MESSAGES_PER_THREAD/);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' }, '/x')).toThrow(/LOG_FORMAT must be pretty or json/);
  });

  it('reads SVC_DATABASE_URL with SVC_DATABASE_POOL_SIZE, and names a bad pool size (issue 42)', () => {
    const env = { SVC_DATABASE_URL: 'postgres://svc:pw@127.0.0.1:5432/svc', SVC_SECRET: 's'.repeat(32) };
    expect(loadConfig({ ...env, SVC_DATABASE_POOL_SIZE: '24' }, '/srv/app')).toMatchObject({
      databaseUrl: env.SVC_DATABASE_URL,
      databasePoolSize: 24,
    });
    expect(loadConfig(env, '/srv/app')).not.toHaveProperty('databasePoolSize');
    expect(() => loadConfig({ ...env, SVC_DATABASE_POOL_SIZE: '0' }, '/srv/app')).toThrow(
      /SVC_DATABASE_POOL_SIZE/,
    );
  });

  it('reads the tool server rate bucket from SVC_MCP_RATE_BURST and SVC_MCP_RATE_PER_MINUTE', () => {
    const c = loadConfig({ SVC_MCP_RATE_BURST: '5000', SVC_MCP_RATE_PER_MINUTE: '100000' }, '/x');
    expect(c.mcpRate).toEqual({ burst: 5000, perMinute: 100000 });
    expect(() => loadConfig({ SVC_MCP_RATE_BURST: '0' }, '/x')).toThrow(/SVC_MCP_RATE_BURST/);
  });

  it('reads the management bucket and SVC_OUTBOUND_LOOPBACK (issue 46)', () => {
    expect(loadConfig({}, '/x').managementRate).toBeUndefined();
    expect(loadConfig({ SVC_MANAGEMENT_RATE_BURST: '500' }, '/x').managementRate).toEqual({
      burst: 500,
      perMinute: 30,
    });
    expect(() => loadConfig({ SVC_MANAGEMENT_RATE_PER_MINUTE: 'x' }, '/x')).toThrow(
      /SVC_MANAGEMENT_RATE_PER_MINUTE/,
    );
    expect(loadConfig({ SVC_OUTBOUND_LOOPBACK: '1' }, '/x').outboundLoopback).toBe(true);
    expect(loadConfig({}, '/x').outboundLoopback).toBeUndefined();
    expect(() => loadConfig({ SVC_OUTBOUND_LOOPBACK: 'yes' }, '/x')).toThrow(
      /SVC_OUTBOUND_LOOPBACK must be 1/,
    );
  });

  it('derives the base URL from PORT and trims a trailing slash from SVC_BASE_URL', () => {
    expect(loadConfig({ PORT: '9000' }, '/x').baseUrl).toBe('http://localhost:9000');
    expect(loadConfig({ SVC_BASE_URL: 'https://svc.example.com/' }, '/x').baseUrl).toBe(
      'https://svc.example.com',
    );
  });

  it('reads the native agents model from SVC_MODEL_*, and names a bad one as INVALID_CONFIG', () => {
    const c = loadConfig({ SVC_MODEL_URL: 'http://127.0.0.1:11434/v1', SVC_MODEL_NAME: 'llama3.2' }, '/x');
    expect(c.model).toMatchObject({ url: 'http://127.0.0.1:11434/v1', model: 'llama3.2', key: null });
    expect(loadConfig({}, '/x').model).toBeUndefined();
    expect(() => loadConfig({ SVC_MODEL_URL: 'http://h' }, '/x')).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', message: expect.stringMatching(/SVC_MODEL_NAME/) }),
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

  it('takes the VAPID contact and key pair (both keys or neither)', () => {
    const pub = `B${'A'.repeat(86)}`;
    const priv = 'a'.repeat(43);
    expect(
      loadConfig(
        {
          SVC_VAPID_SUBJECT: 'mailto:ops@example.com',
          SVC_VAPID_PUBLIC_KEY: pub,
          SVC_VAPID_PRIVATE_KEY: priv,
        },
        '/x',
      ).vapid,
    ).toEqual({ subject: 'mailto:ops@example.com', publicKey: pub, privateKey: priv });
    expect(loadConfig({}, '/x')).not.toHaveProperty('vapid');
    expect(() => loadConfig({ SVC_VAPID_PUBLIC_KEY: pub }, '/x')).toThrow(/leave both unset/);
    expect(() => loadConfig({ SVC_VAPID_SUBJECT: 'ops@example.com' }, '/x')).toThrow(
      /SVC_VAPID_SUBJECT must be a mailto: address or an https: URL/,
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

describe('the default data folder', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-datadir-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('is the same from every working directory (found from the code, not the cwd)', () => {
    const dirs = [repositoryRoot, path.join(repositoryRoot, 'apps', 'web'), os.tmpdir(), '/'].map(
      (cwd) => loadConfig({}, cwd).dataDir,
    );
    expect(new Set(dirs)).toEqual(new Set([path.join(repositoryRoot, 'data')]));
  });

  it('is <workspace root>/data for code anywhere below a package.json with workspaces', () => {
    const root = path.join(tmp, 'project');
    const deep = path.join(root, 'node_modules', '@screen-service', 'server', 'dist');
    fs.mkdirSync(deep, { recursive: true });
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ workspaces: ['apps/*'] }));
    // A package.json without workspaces on the way up is a package, not the root.
    fs.writeFileSync(path.join(deep, '..', 'package.json'), JSON.stringify({ name: 'x' }));
    expect(loadConfig({}, '/', { codeDir: deep }).dataDir).toBe(path.join(root, 'data'));
  });

  it('is the per-user data folder when the code is outside any workspace', () => {
    const outside = path.join(tmp, 'loose', 'dist');
    fs.mkdirSync(outside, { recursive: true });
    const at = (env: Record<string, string>, platform: NodeJS.Platform) =>
      loadConfig(env, '/', { codeDir: outside, home: '/home/ada', platform }).dataDir;
    expect(at({}, 'linux')).toBe('/home/ada/.local/share/screen-service');
    expect(at({ XDG_DATA_HOME: '/xdg' }, 'linux')).toBe('/xdg/screen-service');
    expect(at({}, 'darwin')).toBe('/home/ada/Library/Application Support/screen-service');
  });
});

describe('resolveBaseUrl', () => {
  it('puts the listening port into a base URL on port 0, and leaves any other alone', () => {
    expect(resolveBaseUrl('http://localhost:0', 41234)).toBe('http://localhost:41234');
    expect(resolveBaseUrl('http://127.0.0.1:0/svc', 5)).toBe('http://127.0.0.1:5/svc');
    expect(resolveBaseUrl('http://localhost:8787', 41234)).toBe('http://localhost:8787');
    expect(resolveBaseUrl('https://svc.example.com', 41234)).toBe('https://svc.example.com');
  });
});
