// Checks the decision records in docs/adr and keeps their index (docs/adr/README.md) in step with them.
// Run by `npm run lint`; `node scripts/check-adrs.mjs --write` rewrites the index table (the summaries stay).
// Prints every problem with its fix and exits 1 when there is one.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The one status an ADR has: in force, in force with parts changed by later ADRs, or replaced by one. */
const STATUS =
  /^(?<state>accepted|amended by (?<amended>\d{4}(?:, \d{4})*)|superseded by (?<superseded>\d{4}))(?: \((?<note>.+)\))?\.?$/i;
const FILE = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const INDEX_START = '<!-- adr-index:start';
export const INDEX_END = '<!-- adr-index:end -->';
const HEADER_ROW = '| ADR | Title | Status | Date | What it decides |\n|---|---|---|---|---|';

/**
 * Reads one ADR's text: number and title from `# NNNN: Title`, the header up to the first `## ` heading
 * other than `## Status` (a `- Status:` line, or a `## Status` heading and the line under it), its date,
 * the ADRs it says it amends or supersedes, and its dated corrections.
 */
export function parseAdr(file, text) {
  const problems = [];
  const say = (what) => problems.push(`docs/adr/${file}: ${what}`);
  const number = FILE.exec(file)?.[1];
  if (!number) say('name it NNNN-kebab-case-title.md');
  const lines = text.split('\n');
  const title = /^# (\d{4}): (.+)$/.exec(lines[0] ?? '');
  if (!title) say('the first line must be "# NNNN: Title"');
  else if (title[1] !== number) say(`the title says ${title[1]} but the file is ${number}`);

  let statusText = null;
  let date = null;
  const declares = { amends: [], supersedes: [] };
  const corrections = [];
  let body = lines.length;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## ') && line !== '## Status') {
      body = i;
      break;
    }
    if (line === '## Status') statusText = (lines[i + 1] ?? '').trim();
    const bullet = /^- (Status|Date|Amends|Supersedes): (.*)$/.exec(line);
    if (bullet?.[1] === 'Status') statusText = bullet[2].trim();
    if (bullet?.[1] === 'Date') date = bullet[2].trim();
    if (bullet?.[1] === 'Amends' || bullet?.[1] === 'Supersedes')
      declares[bullet[1].toLowerCase()].push(...(bullet[2].match(/\d{4}/g) ?? []));
  }
  for (let i = 0; i < lines.length; i++) {
    if (!/^>?\s*Corrected\b/.test(lines[i])) continue;
    const c = /^> Corrected (\d{4}-\d{2}-\d{2}): \S/.exec(lines[i]);
    if (!c) say(`line ${i + 1}: write a correction as "> Corrected YYYY-MM-DD: what the code does now"`);
    else if (i > body) say(`line ${i + 1}: a correction goes at the top, above the first section`);
    else corrections.push(c[1]);
  }

  if (statusText === null) say('no status: add "- Status: accepted" under the title');
  const status = statusText === null ? null : STATUS.exec(statusText);
  if (statusText !== null && !status)
    say(
      `status "${statusText}" is not one of: accepted, amended by NNNN[, NNNN], superseded by NNNN (a note may follow in parentheses)`,
    );
  if (!date) say('no date: add "- Date: YYYY-MM-DD" under the status');
  else if (!DATE.test(date)) say(`date "${date}" is not YYYY-MM-DD`);
  for (const c of corrections)
    if (date && c < date) say(`the correction of ${c} is older than the ADR (${date})`);

  const groups = status?.groups;
  return {
    file,
    number,
    title: title?.[2] ?? '',
    date,
    state: groups ? groups.state.split(' ')[0].toLowerCase() : null,
    by: groups?.amended?.split(', ') ?? (groups?.superseded ? [groups.superseded] : []),
    declares,
    corrections,
    problems,
  };
}

/** Problems across ADRs: references to ADRs that do not exist, run backwards in time, or are not returned. */
export function crossCheck(adrs) {
  const problems = [];
  const byNumber = new Map(adrs.map((a) => [a.number, a]));
  for (const a of adrs) {
    for (const n of a.by) {
      const later = byNumber.get(n);
      if (n === a.number) problems.push(`docs/adr/${a.file}: it cannot be ${a.state} by itself`);
      else if (!later) problems.push(`docs/adr/${a.file}: ${a.state} by ${n}, but there is no ADR ${n}`);
      else if (later.date && a.date && later.date < a.date)
        problems.push(`docs/adr/${a.file}: ${a.state} by ${n}, which is older (${later.date} < ${a.date})`);
    }
    for (const [verb, targets] of Object.entries(a.declares)) {
      for (const n of targets) {
        const earlier = byNumber.get(n);
        if (!earlier) problems.push(`docs/adr/${a.file}: it ${verb} ${n}, but there is no ADR ${n}`);
        else if (!earlier.by.includes(a.number))
          problems.push(
            `docs/adr/${earlier.file}: ADR ${a.number} ${verb} it; write "- Status: ${verb === 'supersedes' ? 'superseded' : 'amended'} by ${a.number}" there`,
          );
      }
    }
  }
  return problems;
}

const link = (a) => `[${a.number}](${a.file})`;
const cell = (text) => text.replaceAll('|', '\\|');

/** The index table's rows, from the ADRs, with the summaries already written in the index. */
export function indexTable(adrs, summaries) {
  const byNumber = new Map(adrs.map((a) => [a.number, a]));
  const rows = adrs.map((a) => {
    const refs = a.by.map((n) => (byNumber.has(n) ? link(byNumber.get(n)) : n)).join(', ');
    let status = a.state === 'accepted' ? 'accepted' : `${a.state} by ${refs}`;
    if (a.corrections.length > 0) status += `; corrected ${a.corrections.at(-1)}`;
    return `| ${link(a)} | ${cell(a.title)} | ${status} | ${a.date ?? ''} | ${summaries.get(a.number) ?? ''} |`;
  });
  return `${HEADER_ROW}\n${rows.join('\n')}`;
}

/** Summaries by ADR number, read from the last column of an index table. */
export function readSummaries(table) {
  const summaries = new Map();
  for (const row of table.split('\n')) {
    const number = /^\| \[(\d{4})\]/.exec(row)?.[1];
    if (!number) continue;
    const cells = row.split(/(?<!\\)\|/);
    const summary = (cells.at(-2) ?? '').trim();
    if (summary) summaries.set(number, summary);
  }
  return summaries;
}

/** Everything wrong with the ADRs and their index, and the index as it should read. */
export function checkAdrs(files, readme) {
  const adrs = [...files.keys()]
    .filter((f) => f !== 'README.md')
    .sort()
    .map((f) => parseAdr(f, files.get(f)));
  const problems = adrs.flatMap((a) => a.problems);
  const numbers = adrs.map((a) => a.number);
  for (const n of new Set(numbers))
    if (numbers.filter((x) => x === n).length > 1) problems.push(`docs/adr: two files are numbered ${n}`);
  problems.push(...crossCheck(adrs));

  const start = readme.indexOf(INDEX_START);
  const end = readme.indexOf(INDEX_END);
  if (start < 0 || end < start) {
    problems.push(`docs/adr/README.md: no index; put "${INDEX_START} -->" and "${INDEX_END}" around it`);
    return { problems, readme };
  }
  const open = readme.indexOf('\n', start) + 1;
  const summaries = readSummaries(readme.slice(open, end));
  for (const a of adrs)
    if (!summaries.has(a.number))
      problems.push(`docs/adr/README.md: write one line of what ADR ${a.number} decides in its row`);
  for (const n of summaries.keys())
    if (!numbers.includes(n)) problems.push(`docs/adr/README.md: the index lists ${n}, which has no file`);
  const expected = `${readme.slice(0, open)}${indexTable(adrs, summaries)}\n${readme.slice(end)}`;
  if (expected !== readme)
    problems.push(
      'docs/adr/README.md: the index does not match the ADR files; run node scripts/check-adrs.mjs --write',
    );
  return { problems, readme: expected };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'adr');
  const files = new Map(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
  );
  const readmePath = path.join(dir, 'README.md');
  const { problems, readme } = checkAdrs(files, files.get('README.md') ?? '');
  if (process.argv.includes('--write') && readme !== files.get('README.md')) {
    fs.writeFileSync(readmePath, readme);
    console.log('check-adrs: wrote the index in docs/adr/README.md');
  }
  const left = process.argv.includes('--write') ? problems.filter((p) => !p.includes('--write')) : problems;
  if (left.length > 0) {
    console.error(`check-adrs: ${left.length} problem(s)\n${left.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`check-adrs: ${files.size - 1} ADRs, index in step`);
}
