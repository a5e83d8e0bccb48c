import { describe, expect, it } from 'vitest';
import { buildGuideTexts } from './guide-texts.js';

describe('buildGuideTexts', () => {
  it('generates every model-facing text from the given guide', () => {
    const t = buildGuideTexts({ text: '# Full guide\nbody', short: 'SHORT GUIDE', version: '9+abc' });
    expect(t.resource.endsWith('\n\n# Full guide\nbody')).toBe(true);
    expect(t.resource).toMatch(
      /^Through this tool server, pass the lines to svc_show as they are: no code fence\./,
    );
    expect(t.instructions.split('\n')[0]).toBe('Screen Service tool server (spec v4).');
    expect(t.prompt.endsWith('# Full guide\nbody')).toBe(true);
    expect(t.prompt).toMatch(/screen block.*call svc_show/s);
    expect(t.instructions).toContain('SHORT GUIDE');
    expect(t.instructions).toMatch(/svc_answers\(screen_id, wait=25\)/);
    expect(t.tools.svc_show).toContain('SHORT GUIDE');
    expect(t.tools.svc_show).toMatch(/handle.*or id/);
    expect(t.tools.svc_answers).toMatch(/returned once/);
    expect(t.version).toBe('9+abc');
  });
});
