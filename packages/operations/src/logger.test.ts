// The logger prints human lines on a terminal and JSON lines elsewhere; LOG_FORMAT forces either.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServiceLogger, resolveLogFormat } from './logger.js';

function sink(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (c: Buffer) => {
    text += c.toString();
  });
  return { stream, text: () => text };
}

describe('createServiceLogger', () => {
  it('a terminal gets short human lines with the fields below the message', () => {
    const out = sink(true);
    const log = createServiceLogger({ destination: out.stream, colorize: false });
    log.info({ url: 'http://localhost:8787' }, 'Screen Service listening on http://localhost:8787');
    const text = out.text();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Screen Service listening on http:\/\/localhost:8787\n/);
    expect(text).toContain('url: "http://localhost:8787"');
    expect(text).not.toContain('"level"');
  });

  it('anything else gets JSON lines, and LOG_FORMAT forces either way', async () => {
    const pipe = sink(false);
    createServiceLogger({ destination: pipe.stream }).warn({ job: 'x' }, 'hello');
    await new Promise((r) => setImmediate(r));
    expect(JSON.parse(pipe.text())).toMatchObject({ level: 40, msg: 'hello', job: 'x' });

    const forcedJson = sink(true);
    createServiceLogger({ destination: forcedJson.stream, format: 'json' }).info('hi');
    await new Promise((r) => setImmediate(r));
    expect(JSON.parse(forcedJson.text())).toMatchObject({ msg: 'hi' });

    const forcedPretty = sink(false);
    createServiceLogger({ destination: forcedPretty.stream, format: 'pretty' }).info('hi');
    expect(forcedPretty.text()).toMatch(/INFO: hi/);
    expect(resolveLogFormat('auto', { isTTY: true })).toBe('pretty');
    expect(resolveLogFormat('auto', {})).toBe('json');
  });
});
