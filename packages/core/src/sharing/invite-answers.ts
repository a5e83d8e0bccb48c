// The answers `send` reads back: the invite plan as JSON, a tap event, or a tap line from a form.
import { ServiceError } from '@screen-service/registry/kernel';

/**
 * Reads `send --answers`: a JSON object (the plan itself, edited), a tap event's JSON, or a tap line
 * (`[svc] <id> form key=value ...` with or without its JSON line).
 */
export function readAnswers(raw: unknown): Record<string, unknown> {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    const trimmed = raw.trim();
    if (trimmed.startsWith('[svc]')) {
      const event = parseTapLineLoose(trimmed);
      value = event;
    } else {
      try {
        value = JSON.parse(trimmed);
      } catch {
        throw new ServiceError(
          'INVALID_INPUT',
          'answers must be JSON (the plan) or a tap line starting with [svc].',
          { field: 'answers' },
        );
      }
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ServiceError('INVALID_INPUT', 'answers must be an object of plan keys.', { field: 'answers' });
  }
  const v = value as Record<string, unknown>;
  // A tap event carries the form's answers as its value.
  if (typeof v.preset === 'string' && typeof v.value === 'object' && v.value !== null) {
    return v.value as Record<string, unknown>;
  }
  return v;
}

function parseTapLineLoose(text: string): unknown {
  const newline = text.indexOf('\n');
  if (newline >= 0) {
    try {
      return JSON.parse(text.slice(newline + 1).trim());
    } catch {
      // fall through to the flattened pairs
    }
  }
  const first = newline >= 0 ? text.slice(0, newline) : text;
  const out: Record<string, string> = {};
  // Plan keys have no spaces, so `key=` starts every pair; a value runs to the next ` key=`.
  const re = /([A-Za-z0-9_.-]+)=("(?:[^"\\]|\\.)*"|.*?)(?=\s+[A-Za-z0-9_.-]+=|$)/g;
  const rest = first.replace(/^\[svc\]\s+\S+\s+\S+\s*/, '');
  for (const m of rest.matchAll(re)) {
    const raw = m[2]!.trim();
    out[m[1]!] = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
  }
  return out;
}
