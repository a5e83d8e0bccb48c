// The CLI: help, card against real servers, clear errors with a next step, exit codes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/agents.js';
import { runCli } from './cli-run.js';
import { dirArgument } from './commands/bind.js';

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe('svc-a2a', () => {
  let v10: TestServer;
  let v03: TestServer;
  beforeAll(async () => {
    [v10, v03] = await Promise.all([startTestServer('compat'), startTestServer('v03')]);
  });
  afterAll(() => Promise.all([v10.close(), v03.close()]));

  it('--help lists the command surface', async () => {
    const { code, out } = await cli('--help');
    expect(code).toBe(0);
    expect(out).toMatch(/svc-a2a card <url>/);
    expect(out).toMatch(/pair <code> --card <url>/);
  });

  it('card prints name, protocol version, endpoint and skills for both versions', async () => {
    const a = await cli('card', v10.url('stream'));
    expect(a.code).toBe(0);
    expect(a.out).toContain('Name:      compat-stream');
    expect(a.out).toContain('Protocol:  A2A 1.0 (JSON-RPC)');
    expect(a.out).toContain(`Endpoint:  ${v10.base}/stream/a2a`);
    expect(a.out).toContain('  - Echo: Says back what it hears');
    const b = await cli('card', v03.url('poll'));
    expect(b.out).toContain('Protocol:  A2A 0.3 (JSON-RPC)');
    expect(b.out).toContain('Streaming: no (the bridge polls the task)');
  });

  it('a card with only gRPC and HTTP+JSON is refused with the reason and what to do', async () => {
    const { code, err } = await cli('card', `${v10.base}/grpc`);
    expect(code).toBe(1);
    expect(err).toMatch(
      /offers only GRPC, HTTP\+JSON; the bridge speaks the JSON-RPC binding.*enable its JSON-RPC interface.*\[CARD_NO_JSONRPC\]/s,
    );
  });

  it('usage errors exit 2 and say how to fix them', async () => {
    expect(await cli('card')).toMatchObject({ code: 2, err: expect.stringMatching(/card takes one URL/) });
    expect(await cli('card', 'x', '--header', 'nocolon')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--header needs/),
    });
    expect(await cli('pair', '123456')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/give either --card <url>/),
    });
    expect(await cli('pair', '12ab', '--card', v10.url('stream'))).toMatchObject({
      code: 2,
      err: expect.stringMatching(/the code is the 6 digits the app shows/),
    });
    // A misspelt option: the closest real one and the whole list.
    expect(await cli('pair', '123456', '--crad', 'https://agent.example')).toEqual({
      code: 2,
      out: '',
      err: 'svc-a2a: unknown option --crad. Did you mean --card? Options: --header, --card, --webhook, --name, --profile, --url, --dir, --allow-endpoint, --help (see svc-a2a --help)\n',
    });
    expect(await cli('list', '-x')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^svc-a2a: unknown option -x\. Options: --header, /),
    });
    expect(await cli('frob')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown command "frob"/),
    });
    expect(await cli('card', 'not a url')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/is not a URL/),
    });
  });

  it('before the first pair: list says so, add and run say what to do first (2), remove names the agent (1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-a2a-cli-'));
    try {
      const env = { env: { SVC_A2A_HOME: dir } };
      const run = async (...argv: string[]) => {
        let out = '';
        let err = '';
        const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t), ...env });
        return { code, out, err };
      };
      expect(await run('list')).toMatchObject({
        code: 0,
        out: expect.stringMatching(/not paired yet.*\nAgents: {4}none/s),
      });
      expect(await run('add', '--card', v10.url('stream'))).toMatchObject({
        code: 2,
        err: expect.stringMatching(
          /not paired yet: add an agent in the app and run svc-a2a pair <code> --card <url> first \[NOT_PAIRED\]/,
        ),
      });
      // A folder given with --dir is repeated in the command it suggests.
      expect(await run('add', '--card', v10.url('stream'), '--dir', dir)).toMatchObject({
        code: 2,
        err: expect.stringContaining(`svc-a2a pair <code> --card <url> --dir ${dir} first [NOT_PAIRED]`),
      });
      expect(await run('run')).toMatchObject({
        code: 2,
        err: expect.stringMatching(/nothing to run.*\[NOT_PAIRED\]/),
      });
      expect(await run('remove', 'ghost')).toMatchObject({
        code: 1,
        err: expect.stringMatching(/no agent "ghost" here; svc-a2a list shows/),
      });
      expect(await run('add', '--card', 'x', '--webhook', 'y')).toMatchObject({
        code: 2,
        err: expect.stringMatching(/give either --card <url> .* or --webhook <url>/),
      });
      expect(await run('pair', '123456', '--webhook', 'ftp://hooks.example')).toMatchObject({
        code: 1,
        err: expect.stringMatching(/not an http\(s\) URL.*\[INVALID_WEBHOOK_URL\]/),
      });
      expect(await run('pair', '123456', '--card')).toMatchObject({
        code: 2,
        err: expect.stringMatching(/--card needs a value/),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks its environment: a bad SVC_BASE_URL is named with an example (exit 2); headers repeat', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-a2a-env-'));
    try {
      let err = '';
      const code = await runCli(['list'], {
        out: () => {},
        err: (t) => (err += t),
        env: { SVC_A2A_HOME: dir, SVC_BASE_URL: 'svc.example' },
      });
      expect(code).toBe(2);
      expect(err).toBe(
        'svc-a2a: SVC_BASE_URL: must be an absolute http(s) URL, for example http://localhost:8787\n',
      );
      // Empty counts as unset: the default service URL, no refusal.
      expect(
        await runCli(['list'], {
          out: () => {},
          err: () => {},
          env: { SVC_A2A_HOME: dir, SVC_BASE_URL: '' },
        }),
      ).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await cli('card', 'x', '--header', 'A: 1', '--header')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--header needs "<name>: <value>"/),
    });
    expect(await cli('card', 'x', '--card', '--url')).toMatchObject({
      code: 2,
      err: 'svc-a2a: --card needs a value; see svc-a2a --help\n',
    });
  });

  it('quotes a --dir the shell would split when it repeats it', () => {
    expect(dirArgument(undefined)).toBe('');
    expect(dirArgument('/home/ada/.svc-a2a-work')).toBe(' --dir /home/ada/.svc-a2a-work');
    expect(dirArgument("/tmp/Ada's bridge")).toBe(` --dir '/tmp/Ada'\\''s bridge'`);
  });

  it('the executable runs and prints help', () => {
    const entry = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', entry, '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^svc-a2a: bring an A2A agent/);
  });
});
