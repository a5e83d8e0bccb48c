// Tests of check-adrs.mjs on small made-up ADR sets: each rule refuses what it is for, and a good set passes.
// Run by `npm run lint` (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAdrs, INDEX_END } from './check-adrs.mjs';

const adr = (n, title, header = '- Status: accepted\n- Date: 2026-11-21', body = '## Decision\n\nText.\n') =>
  `# ${n}: ${title}\n\n${header}\n\n${body}`;

/** A README whose index the checker wrote for these files, with a summary for each. */
function withIndex(files) {
  const readme = `# ADRs\n\n<!-- adr-index:start -->\n${[...files.keys()]
    .map((f) => `| [${f.slice(0, 4)}](${f}) | | | | Decides ${f.slice(0, 4)}. |`)
    .join('\n')}\n${INDEX_END}\n`;
  return checkAdrs(files, readme).readme;
}

function problemsOf(files, readme = withIndex(files)) {
  return checkAdrs(files, readme).problems;
}

const good = () =>
  new Map([
    [
      '0001-first.md',
      adr('0001', 'First', '- Status: amended by 0002 (the second part)\n- Date: 2026-11-21'),
    ],
    [
      '0002-second.md',
      adr(
        '0002',
        'Second',
        '- Status: accepted\n- Date: 2026-11-22\n- Amends: 0001',
        '> Corrected 2026-11-28: the code does this now.\n\n## Decision\n',
      ),
    ],
  ]);

test('a consistent set passes, and the index shows statuses, links and corrections', () => {
  const files = good();
  const readme = withIndex(files);
  assert.deepEqual(problemsOf(files, readme), []);
  assert.match(
    readme,
    /\| \[0001\]\(0001-first\.md\) \| First \| amended by \[0002\]\(0002-second\.md\) \| 2026-11-21 \| Decides 0001\. \|/,
  );
  assert.match(readme, /\| \[0002\]\(0002-second\.md\) \| Second \| accepted; corrected 2026-11-28 \|/);
});

test('the legacy "## Status" section is read too', () => {
  const files = new Map([
    ['0003-old.md', '# 0003: Old\n\n- Date: 2026-11-23\n\n## Status\nAccepted (issue 14).\n\n## Context\n'],
  ]);
  assert.deepEqual(problemsOf(files), []);
});

test('a missing or unknown status, a missing date and a title that does not match are refused', () => {
  const files = new Map([
    ['0001-a.md', adr('0001', 'A', '- Date: 2026-11-21')],
    ['0002-b.md', adr('0002', 'B', '- Status: proposed\n- Date: 2026-11-21')],
    ['0003-c.md', adr('0003', 'C', '- Status: accepted')],
    ['0004-d.md', adr('0005', 'D')],
  ]);
  const problems = problemsOf(files).join('\n');
  assert.match(problems, /0001-a\.md: no status/);
  assert.match(problems, /0002-b\.md: status "proposed" is not one of/);
  assert.match(problems, /0003-c\.md: no date/);
  assert.match(problems, /0004-d\.md: the title says 0005 but the file is 0004/);
});

test('a status naming an ADR that does not exist, or a newer ADR amended by an older one, is refused', () => {
  const files = new Map([
    ['0001-a.md', adr('0001', 'A', '- Status: superseded by 0009\n- Date: 2026-11-21')],
    ['0002-b.md', adr('0002', 'B', '- Status: amended by 0003\n- Date: 2026-11-25')],
    ['0003-c.md', adr('0003', 'C', '- Status: accepted\n- Date: 2026-11-22')],
  ]);
  const problems = problemsOf(files).join('\n');
  assert.match(problems, /0001-a\.md: superseded by 0009, but there is no ADR 0009/);
  assert.match(problems, /0002-b\.md: amended by 0003, which is older/);
});

test("an ADR that amends or supersedes another must be named in that one's status", () => {
  const files = good();
  files.set('0001-first.md', adr('0001', 'First'));
  files.set(
    '0004-third.md',
    adr('0004', 'Third', '- Status: accepted\n- Date: 2026-11-23\n- Supersedes: 0002'),
  );
  const problems = problemsOf(files).join('\n');
  assert.match(problems, /0001-first\.md: ADR 0002 amends it; write "- Status: amended by 0002" there/);
  assert.match(
    problems,
    /0002-second\.md: ADR 0004 supersedes it; write "- Status: superseded by 0004" there/,
  );
});

test('a correction must be dated, well formed and at the top', () => {
  const files = new Map([
    ['0001-a.md', adr('0001', 'A', undefined, '## Decision\n\n> Corrected 2026-11-28: too low.\n')],
    ['0002-b.md', adr('0002', 'B', undefined, 'Corrected: no date.\n\n## Decision\n')],
    ['0003-c.md', adr('0003', 'C', undefined, '> Corrected 2026-11-01: before the ADR.\n\n## Decision\n')],
  ]);
  const problems = problemsOf(files).join('\n');
  assert.match(problems, /0001-a\.md: line \d+: a correction goes at the top/);
  assert.match(problems, /0002-b\.md: line \d+: write a correction as/);
  assert.match(problems, /0003-c\.md: the correction of 2026-11-01 is older than the ADR/);
});

test('the index must list every file, each with a summary, and nothing else, as --write would write it', () => {
  const files = good();
  const readme = withIndex(files);
  files.set('0005-new.md', adr('0005', 'New'));
  assert.match(problemsOf(files, readme).join('\n'), /write one line of what ADR 0005 decides/);
  assert.match(problemsOf(files, readme).join('\n'), /the index does not match the ADR files/);

  const renamed = good();
  renamed.set('0002-second.md', renamed.get('0002-second.md').replace('Second', 'Second, renamed'));
  assert.match(problemsOf(renamed, readme).join('\n'), /the index does not match the ADR files/);

  const fewer = good();
  fewer.delete('0002-second.md');
  fewer.set('0001-first.md', adr('0001', 'First'));
  assert.match(problemsOf(fewer, readme).join('\n'), /the index lists 0002, which has no file/);

  assert.match(problemsOf(good(), '# ADRs\n').join('\n'), /no index/);
});

test('two files with one number are refused', () => {
  const files = new Map([
    ['0001-a.md', adr('0001', 'A')],
    ['0001-b.md', adr('0001', 'B')],
  ]);
  assert.match(problemsOf(files).join('\n'), /two files are numbered 0001/);
});
