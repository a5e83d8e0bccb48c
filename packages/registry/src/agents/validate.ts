// Small input checks shared by the rules; each failure names the field and how to fix it.
import { cleanLook } from '@screen-service/theme';
import { cleanDisplayName } from '../kernel/display-name.js';
import { ServiceError } from '../kernel/errors.js';
import { AGENT_COLORS, type AgentColor, CONNECTOR_KINDS, type ConnectorKind } from '../model/records.js';

/** An agent's name: cleaned ({@link cleanDisplayName}), 1 to 40 characters of which some are visible. */
export function agentName(value: unknown, field = 'name'): string {
  const name = typeof value === 'string' ? cleanDisplayName(value) : null;
  if (name === null || name.length > 40) {
    throw new ServiceError('INVALID_INPUT', `${field} must be 1 to 40 visible characters${blank(value)}.`, {
      field,
    });
  }
  return name;
}

/** Why a name that is text was refused when none of it can be seen (joiners, marks, spaces only). */
function blank(value: unknown): string {
  return typeof value === 'string' && value !== '' && cleanDisplayName(value) === null
    ? ' (this one has no visible character: only spaces, joiners, marks or invisible characters)'
    : '';
}

export function agentColor(value: unknown): AgentColor {
  if (!AGENT_COLORS.includes(value as AgentColor)) {
    throw new ServiceError('INVALID_INPUT', `color must be one of ${AGENT_COLORS.join(', ')}.`, {
      field: 'color',
    });
  }
  return value as AgentColor;
}

export function connectorKind(value: unknown): ConnectorKind {
  if (!CONNECTOR_KINDS.includes(value as ConnectorKind)) {
    throw new ServiceError('INVALID_INPUT', `kind must be one of ${CONNECTOR_KINDS.join(', ')}.`, {
      field: 'kind',
    });
  }
  return value as ConnectorKind;
}

/** remote_ref: letters, digits, `.`, `_`, `-` (doc1), 1 to 64 characters. */
export function remoteRef(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(value)) {
    throw new ServiceError(
      'INVALID_INPUT',
      'remote_ref must be 1 to 64 letters, digits, ".", "_" or "-" (the host profile name).',
      { field: 'remote_ref' },
    );
  }
  return value;
}

/** A machine's name: cleaned ({@link cleanDisplayName}), 1 to 80 characters of which some are visible. */
export function hostName(value: unknown): string {
  const name = typeof value === 'string' ? cleanDisplayName(value) : null;
  if (name === null || name.length > 80) {
    throw new ServiceError(
      'INVALID_INPUT',
      `host_name must be 1 to 80 visible characters (the machine name)${blank(value)}.`,
      { field: 'host_name' },
    );
  }
  return name;
}

/**
 * A theme from the person's app: a JSON object of at most 2 KB once serialised, then cleaned the way the
 * registry stores every look (doc2: known keys, known words, `#RRGGBB`; everything else dropped).
 */
export function theme(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ServiceError('INVALID_INPUT', 'theme must be a JSON object.', { field: 'theme' });
  }
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > 2048) {
    throw new ServiceError('INVALID_INPUT', 'theme must be at most 2 KB of JSON.', { field: 'theme' });
  }
  return cleanLook(value) as Record<string, unknown>;
}
