// The `query` component: reads doc3's clauses into QueryProps and prints them back canonically.

import { emptyQueryProps } from './catalog/query-spec.js';
import { CHART_TYPES } from './catalog/shared.js';
import { flagName, settingOf } from './component-args.js';
import { fail } from './fault.js';
import type { QueryProps, WhereOperator } from './ops.js';
import type { Token } from './scan.js';
import { tokenize } from './scan.js';
import { checkColumnName, checkTableName } from './table-words.js';
import {
  formatLineValue,
  formatNumber,
  formatWord,
  lineValueOf,
  quote,
  rawText,
  splitPipes,
  type Term,
  textOf,
  unquote,
} from './terms.js';

/** Views a query draws (`as ...`). */
export const QUERY_VIEWS = ['table', 'list', 'chart', 'stat', 'send'] as const;
/** Settings a query line takes, in canonical order. */
export const QUERY_SETTINGS = [
  'where',
  'sort',
  'limit',
  'cols',
  'group',
  'sum',
  'avg',
  'min',
  'max',
  'y',
  'as',
  'type',
  'x',
  'unit',
  'check',
  'label',
  'good',
] as const;
const OPS: readonly string[] = ['=', '!=', '>', '<', '>=', '<=', '~'];
const AGGREGATES = ['sum', 'avg', 'min', 'max'] as const;
const MAX_LIMIT = 500;
/** A sort column as written (a literal in the loop made a RegExp object for every column). */
const SORT_NAME = /^[A-Za-z_][A-Za-z0-9_ -]*$/;

/** Reads the arguments of a query line (terms after `query[@id]`) into QueryProps. */
export function readQuery(terms: Term[], source: string, headEnd: number): QueryProps {
  const tableTerm = terms[0];
  if (!tableTerm)
    fail(
      'INVALID_TABLE_NAME',
      headEnd,
      'query needs a table: query <table> [where=...] [as table|list|chart|stat|send]',
    );
  const table = source.slice(tableTerm.start, tableTerm.end);
  checkTableName(table, tableTerm.start, 'query');
  const props = emptyQueryProps(table);
  // Clauses met so far: a handful, so a list is cheaper than a Set per line.
  const seen: string[] = [];
  const chart: NonNullable<QueryProps['chart']> = {};
  let title: string[] | undefined;
  let boundAt: number | undefined;
  for (let i = 1; i < terms.length; i++) {
    const term = terms[i]!;
    // Only `as` matters here; comparing in place spares a string for every other term.
    const isAs = term.end - term.start === 2 && source.startsWith('as', term.start);
    const flag = flagName(term);
    if (flag !== undefined) {
      if (flag === 'count') props.count = true;
      else if (flag === 'stack') chart.stack = true;
      else fail('UNKNOWN_FLAG', term.start, `query has no flag +${flag} (flags: +count, +stack)`);
      continue;
    }
    const next = isAs && terms[i + 1] ? source.slice(terms[i + 1]!.start, terms[i + 1]!.end) : '';
    if (next !== '' && (QUERY_VIEWS as readonly string[]).includes(next)) {
      once(seen, 'as', term);
      props.as = next as QueryProps['as'];
      i++;
      const after = terms[i + 1] ? source.slice(terms[i + 1]!.start, terms[i + 1]!.end) : '';
      if (next === 'chart' && (CHART_TYPES as readonly string[]).includes(after)) {
        once(seen, 'type', term);
        chart.type = after as (typeof CHART_TYPES)[number];
        i++;
      }
      continue;
    }
    const setting = settingOf(term);
    if (!setting) {
      if (title === undefined) title = [textOf(source, term.tokens)];
      else title.push(textOf(source, term.tokens));
      continue;
    }
    const { name, value } = setting;
    const text = rawText(source, value);
    const isNumber = value.length === 1 && value[0]!.type === 'NumberLit';
    // min=/max= may appear twice: once as an axis bound (a number), once as aggregate columns.
    once(seen, (name === 'min' || name === 'max') && isNumber ? `${name}#` : name, term);
    switch (name) {
      case 'where':
        props.where = readWhere(value, source, term);
        break;
      case 'sort':
        props.sort = columnList(value, source, term, 'sort', true).map((c) =>
          c.startsWith('-') ? { col: c.slice(1), desc: true } : { col: c, desc: false },
        );
        break;
      case 'limit': {
        const n = Number(text);
        if (!isNumber || !Number.isInteger(n) || n < 1 || n > MAX_LIMIT) {
          fail(
            'INVALID_LIMIT',
            term.start,
            `query limit= takes a whole number from 1 to ${MAX_LIMIT} (got '${text}')`,
          );
        }
        props.limit = n;
        break;
      }
      case 'group':
        props.group = readGroup(text, term);
        break;
      case 'min':
      case 'max':
        if (isNumber) {
          chart[name] = Number(text);
          boundAt ??= term.start;
        } else props[name] = columnList(value, source, term, name, false);
        break;
      case 'cols':
      case 'sum':
      case 'avg':
      case 'y':
        props[name] = columnList(value, source, term, name, false);
        break;
      case 'as':
        if (!(QUERY_VIEWS as readonly string[]).includes(text))
          fail('INVALID_VIEW', term.start, viewMessage(text));
        props.as = text as QueryProps['as'];
        break;
      case 'type':
        if (!(CHART_TYPES as readonly string[]).includes(text)) {
          fail(
            'INVALID_VALUE',
            term.start,
            `query type= is one of ${CHART_TYPES.join(', ')} (got '${text}')`,
          );
        }
        chart.type = text as (typeof CHART_TYPES)[number];
        break;
      case 'x':
      case 'check':
        checkColumnName(text, term.start, `query ${name}=`, true);
        if (name === 'x') chart.x = text;
        else props.check = text;
        break;
      case 'unit':
        chart.unit = textOf(source, value);
        break;
      case 'label':
        props.label = textOf(source, value);
        break;
      case 'good':
        if (text !== 'up' && text !== 'down')
          fail('INVALID_VALUE', term.start, `query good= is up or down (got '${text}')`);
        props.good = text;
        break;
      default:
        fail(
          'UNKNOWN_SETTING',
          term.start,
          `query has no setting ${name}= (settings: ${QUERY_SETTINGS.map((s) => `${s}=`).join(' ')}); put a title with = in quotes`,
        );
    }
  }
  if ((chart.min !== undefined || chart.max !== undefined) && props.as !== 'chart') {
    fail(
      'INVALID_AGGREGATE',
      boundAt ?? tableTerm.start,
      'query min=/max= take column names; a number is an axis bound and needs as chart',
    );
  }
  if (hasKeys(chart)) props.chart = chart;
  if (title !== undefined) props.title = title.join(' ');
  return props;
}

/** `Object.keys(o).length > 0` without the array. */
function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

function once(seen: string[], name: string, term: Term): void {
  if (seen.includes(name))
    fail('REPEATED_SETTING', term.start, `query has ${name.replace('#', '')}= twice; keep one`);
  seen.push(name);
}

function viewMessage(text: string): string {
  return `query views are ${QUERY_VIEWS.join(', ')}: write as table, as list, as chart [type], as stat or as send (got '${text}')`;
}

function columnList(value: Token[], source: string, term: Term, what: string, allowMinus: boolean): string[] {
  const parts = splitPipes(value);
  // Made at its final size: the result keeps it, and a list grown by push keeps room for 17.
  const cols: string[] = new Array(parts.length);
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    const col = rawText(source, part);
    const name = allowMinus && col.startsWith('-') ? col.slice(1) : col;
    if (what === 'sort' && !SORT_NAME.test(name)) {
      fail(
        'INVALID_SORT',
        part[0]?.startOffset ?? term.start,
        `query sort= takes Col or -Col joined by | (got '${col}')`,
      );
    }
    checkColumnName(name, part[0]?.startOffset ?? term.start, `query ${what}=`, true);
    cols[k] = col;
  }
  return cols;
}

function readGroup(text: string, term: Term): NonNullable<QueryProps['group']> {
  const [col, by, extra] = text.split(':');
  if (extra !== undefined || (by !== undefined && by !== 'day' && by !== 'week' && by !== 'month')) {
    fail(
      'INVALID_GROUP',
      term.start,
      `query group= takes Col, Col:day, Col:week or Col:month (got '${text}')`,
    );
  }
  checkColumnName(col!, term.start, 'query group=', true);
  return by === undefined ? { col: col! } : { col: col!, by };
}

function readWhere(value: Token[], source: string, term: Term): QueryProps['where'] {
  return splitPipes(value).map((part) => {
    let tokens = part;
    let text = source;
    if (part.length === 1 && part[0]!.type === 'Quoted') {
      text = unquote(part[0]!.image);
      tokens = tokenize(text);
    }
    const [col, op] = tokens;
    const offset = part[0]?.startOffset ?? term.start;
    if (!col || !op || op.type !== 'Op' || !OPS.includes(op.image)) {
      fail(
        'INVALID_WHERE',
        offset,
        `query where= clauses are Col<op>value joined by |, ops = != > < >= <= ~ (got '${rawText(text, tokens)}'); quote a clause with spaces: where="Note~two words"`,
      );
    }
    checkColumnName(col.image, offset, 'query where=', true);
    const spaced = tokens.length > 2 && tokens[2]!.startOffset !== op.end;
    const parsed = lineValueOf(text, tokens, 2);
    if (spaced || (parsed.kind === 'empty' && op.image !== '=' && op.image !== '!=')) {
      fail(
        'INVALID_WHERE',
        offset,
        `query where= clause '${rawText(text, tokens)}' needs a value right after ${op.image}`,
      );
    }
    // OPS's own string rather than the token's: one object less for the result to keep.
    return { col: col.image, op: OPS[OPS.indexOf(op.image)] as WhereOperator, value: parsed };
  });
}

/** Prints query props as the arguments of a canonical query line. */
export function formatQueryArgs(p: QueryProps): string {
  const parts = [p.table];
  const list = (name: string, cols: string[]) => cols.length > 0 && parts.push(`${name}=${cols.join('|')}`);
  if (p.where.length > 0) {
    parts.push(`where=${p.where.map((w) => `${w.col}${w.op}${formatLineValue(w.value)}`).join('|')}`);
  }
  if (p.sort.length > 0) parts.push(`sort=${p.sort.map((s) => `${s.desc ? '-' : ''}${s.col}`).join('|')}`);
  if (p.limit !== undefined) parts.push(`limit=${p.limit}`);
  list('cols', p.cols);
  if (p.group) parts.push(`group=${p.group.col}${p.group.by ? `:${p.group.by}` : ''}`);
  for (const agg of AGGREGATES) list(agg, p[agg]);
  list('y', p.y);
  if (p.count) parts.push('+count');
  const chart = p.chart ?? {};
  if (p.as !== 'table') parts.push(`as ${p.as}${p.as === 'chart' && chart.type ? ` ${chart.type}` : ''}`);
  if (chart.type && p.as !== 'chart') parts.push(`type=${chart.type}`);
  if (chart.x !== undefined) parts.push(`x=${chart.x}`);
  if (chart.unit !== undefined) parts.push(`unit=${formatWord(chart.unit)}`);
  if (chart.min !== undefined) parts.push(`min=${formatNumber(chart.min)}`);
  if (chart.max !== undefined) parts.push(`max=${formatNumber(chart.max)}`);
  if (chart.stack) parts.push('+stack');
  if (p.check !== undefined) parts.push(`check=${p.check}`);
  if (p.label !== undefined) parts.push(`label=${formatWord(p.label)}`);
  if (p.good !== undefined) parts.push(`good=${p.good}`);
  if (p.title !== undefined) parts.push(quote(p.title));
  return parts.join(' ');
}
