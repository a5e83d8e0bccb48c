// formatCssVariables: a palette written as a CSS rule, for a <style> element or a static sheet.

/**
 * Writes custom properties as one CSS rule (values are the compiler's own, so nothing is escaped).
 *
 * @example
 * ```ts
 * const { light, dark } = compilePalette({ preset: 'paper' });
 * formatCssVariables(light, ':root') + formatCssVariables(dark, '@media (prefers-color-scheme: dark) { :root');
 * formatCssVariables({ '--svc-bg': '#ffffff' }, '.thread'); // '.thread {\n  --svc-bg: #ffffff;\n}\n'
 * ```
 */
export function formatCssVariables(variables: Readonly<Record<string, string>>, selector = ':root'): string {
  const body = Object.entries(variables)
    .map(([name, value]) => `  ${name}: ${value};`)
    .join('\n');
  return `${selector} {\n${body}\n}\n`;
}
