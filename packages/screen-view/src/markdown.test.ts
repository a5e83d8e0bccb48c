import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it('draws bold, italic, code, links, headings and lists as elements', () => {
    const el = renderMarkdown(
      document,
      '# Plan\n**Good** *morning* `now` [site](https://example.com)\n- one\n- two',
    );
    expect(el.querySelector('[role=heading]')!.textContent).toBe('Plan');
    expect(el.querySelector('strong')!.textContent).toBe('Good');
    expect(el.querySelector('em')!.textContent).toBe('morning');
    expect(el.querySelector('code')!.textContent).toBe('now');
    const a = el.querySelector('a')!;
    expect([a.textContent, a.getAttribute('href'), a.getAttribute('rel')]).toEqual([
      'site',
      'https://example.com',
      'noopener noreferrer',
    ]);
    expect(el.querySelectorAll('li')).toHaveLength(2);
  });

  it('never turns text into markup', () => {
    const el = renderMarkdown(document, '<img src=x onerror=alert(1)> [x](javascript:alert(1))');
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('a')).toBeNull();
    expect(el.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('leaves underscores inside words alone (snake_case, ids), as CommonMark does', () => {
    const el = renderMarkdown(document, 'Run make_plan for agt_Bd9~usr_j7d, or _now_ and __soon__.');
    expect(el.textContent).toBe('Run make_plan for agt_Bd9~usr_j7d, or now and soon.');
    expect([...el.querySelectorAll('em, strong')].map((e) => `${e.tagName}:${e.textContent}`)).toEqual([
      'EM:now',
      'STRONG:soon',
    ]);
  });
});
