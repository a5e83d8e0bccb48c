import { expect, it } from 'vitest';
import { parseMetrics, sampleProcess } from './service.js';

it('reads Prometheus text into name{labels} → value', () => {
  const m = parseMetrics(
    '# HELP svc_answers_waiters x\n# TYPE svc_answers_waiters gauge\nsvc_answers_waiters 3\nsvc_tool_calls_total{tool="svc_show",outcome="ok"} 12\n',
  );
  expect(m.get('svc_answers_waiters')).toBe(3);
  expect(m.get('svc_tool_calls_total{tool="svc_show",outcome="ok"}')).toBe(12);
});

it('samples RSS and open descriptors of a live process from /proc', () => {
  const s = sampleProcess(process.pid);
  expect(s.rssBytes).toBeGreaterThan(1024 * 1024);
  expect(s.openFds).toBeGreaterThan(2);
});
