// The Screen Lines playground: lines on one side, the live screen on the other; no account, tables in the browser.
import { catalog, type Op, parse } from '@screen-service/screen-lines';
import {
  createStoreQuery,
  renderScreen,
  type ScreenHandle,
  type ScreenTap,
  type StoreQuery,
} from '@screen-service/screen-view';
import { PRESET_NAMES } from '@screen-service/theme';
import { el } from '../shared/dom.js';
import { applyLook, applyScheme, type Scheme, savedScheme, useScreenCss } from '../shared/look.js';
import { EXAMPLE } from './example.js';
import { callContext, OWNER, openSavedTables, runTableOps, scratchCopy, tableOps } from './tables.js';

const LINES_KEY = 'svc-playground-lines';
const saved = openSavedTables();
let look: Record<string, unknown> = { preset: 'ocean' };
let screen: ScreenHandle | undefined;
let keptText: string | undefined;

useScreenCss();
applyLook(look);

const editor = el('textarea', {
  id: 'lines',
  class: 'pg-editor',
  spellcheck: 'false',
  autocapitalize: 'off',
  autocomplete: 'off',
  'aria-describedby': 'pg-errors',
  rows: 16,
});
editor.value = localStorage.getItem(LINES_KEY) ?? EXAMPLE;
const errors = el('ul', { id: 'pg-errors', class: 'pg-errors', 'aria-live': 'polite' });
const stage = el('div', { class: 'pg-stage', 'aria-live': 'off' });
const taps = el(
  'ol',
  { class: 'pg-taps', reversed: true },
  el('li', { class: 'pg-empty svc-muted' }, 'Tap the screen: the lines the agent would hear show up here.'),
);
const tablesList = el('ul', { class: 'pg-tables' });
const keep = el('button', { type: 'button', class: 'svc-btn svc-primary' }, 'Keep the table lines');
const clear = el('button', { type: 'button', class: 'svc-btn' }, 'Clear tables');
const insert = el(
  'select',
  { id: 'pg-insert', class: 'svc-input pg-select', 'aria-label': 'Add a component' },
  el('option', { value: '' }, 'Add a component…'),
  ...Object.values(catalog).map((c) => el('option', { value: c.name }, `${c.name} — ${c.summary}`)),
);
const lookSelect = el(
  'select',
  { id: 'pg-look', class: 'svc-input pg-select' },
  ...PRESET_NAMES.map((p) => el('option', { value: p, selected: p === 'ocean' }, p)),
);
const schemeSelect = el(
  'select',
  { id: 'pg-scheme', class: 'svc-input pg-select' },
  el('option', { value: 'auto' }, 'Device'),
  el('option', { value: 'light' }, 'Light'),
  el('option', { value: 'dark' }, 'Dark'),
);
schemeSelect.value = savedScheme();
applyScheme(savedScheme());

async function logTap(tap: ScreenTap): Promise<void> {
  const [head] = tap.line.split('\n');
  taps.querySelector('.pg-empty')?.remove();
  taps.prepend(
    el(
      'li',
      { class: tap.quiet ? 'pg-quiet' : undefined },
      el('code', {}, head),
      tap.quiet ? el('span', { class: 'svc-muted' }, ' quiet: stays on the phone') : null,
      el('details', {}, el('summary', {}, 'event JSON'), el('pre', {}, JSON.stringify(tap.event, null, 2))),
    ),
  );
  if (tap.event.preset === 'query' && tap.event.op === 'row' && typeof tap.event.table === 'string') {
    // A row changed in a view is written at once (doc3); the saved tables keep it.
    const values = tap.event.values as Record<string, boolean>;
    await runTableOps(saved, [
      {
        op: {
          op: 'put',
          table: tap.event.table,
          key: String(tap.event.key),
          values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { kind: 'bool', value: v }])),
        },
        line: tap.line,
        lineNo: 0,
      },
    ]);
    await showTables();
    await answers?.load(drawnOps);
    screen?.refresh();
  }
}

async function showTables(): Promise<void> {
  const list = await saved.listTables(OWNER);
  tablesList.replaceChildren(
    ...(list.length === 0
      ? [el('li', { class: 'svc-muted' }, 'No tables kept yet.')]
      : list.map((t) =>
          el(
            'li',
            {},
            el('strong', {}, t.name),
            ` · ${t.rowCount} ${t.rowCount === 1 ? 'row' : 'rows'} · `,
            el('span', { class: 'svc-muted' }, t.cols.map((c) => `${c.name}:${c.type}`).join(' ')),
          ),
        )),
  );
}

// Each draw reads the tables asynchronously; only the newest draw reaches the page.
let drawing = 0;
let answers: StoreQuery | undefined;
let drawnOps: Op[] = [];

async function draw(): Promise<void> {
  const mine = ++drawing;
  const text = editor.value;
  localStorage.setItem(LINES_KEY, text);
  const parsed = parse(text);
  const writes = tableOps(parsed.ops, parsed.spans);
  const scratch = scratchCopy(saved);
  const refused = keptText === text ? [] : await runTableOps(scratch, writes);
  const next = createStoreQuery(scratch, callContext());
  await next.load(parsed.ops as Op[]);
  if (mine !== drawing) return;
  answers = next;
  drawnOps = parsed.ops as Op[];
  const problems = [
    ...parsed.errors.map((e) => ({ line: e.line, message: e.message })),
    ...refused.map((r) => ({ line: r.lineNo, message: `line ${r.lineNo}: ${r.failure.error}` })),
  ].sort((a, b) => a.line - b.line);
  errors.replaceChildren(
    ...problems.map((p) =>
      el('li', {}, el('button', { type: 'button', class: 'pg-jump', 'data-line': p.line }, p.message)),
    ),
  );
  editor.setAttribute('aria-invalid', String(problems.length > 0));
  keep.disabled = writes.length === 0 || keptText === text;
  keep.textContent =
    writes.length === 0
      ? 'No table lines to keep'
      : keptText === text
        ? 'Table lines kept'
        : `Keep ${writes.length} table ${writes.length === 1 ? 'line' : 'lines'}`;
  screen?.destroy();
  let themed = false;
  screen = renderScreen(parsed.ops as Op[], {
    screen: 'playground',
    onTap: (tap) => void logTap(tap),
    query: next.query,
    onTheme: (next) => {
      themed = true;
      applyLook({ ...look, ...next });
    },
    uploadPhotos: async (files) => files.map((f) => URL.createObjectURL(f)),
  });
  if (!themed) applyLook(look);
  stage.replaceChildren(screen.element);
}

let timer: ReturnType<typeof setTimeout> | undefined;
editor.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(() => void draw(), 120);
});
errors.addEventListener('click', (e) => {
  const target = (e.target as HTMLElement).closest<HTMLButtonElement>('.pg-jump');
  if (!target) return;
  const line = Number(target.dataset.line);
  const lines = editor.value.split('\n');
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  editor.focus();
  editor.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
});
keep.addEventListener('click', async () => {
  const parsed = parse(editor.value);
  const text = editor.value;
  await runTableOps(saved, tableOps(parsed.ops, parsed.spans));
  keptText = text;
  await showTables();
  await draw();
});
clear.addEventListener('click', async () => {
  saved.restore({ version: 1, tables: [], pending: [], nextPending: 1 });
  localStorage.setItem('svc-playground-tables', JSON.stringify(saved.snapshot()));
  keptText = undefined;
  await showTables();
  await draw();
});
insert.addEventListener('change', () => {
  const spec = catalog[insert.value];
  if (spec) {
    editor.value = `${editor.value.replace(/\n*$/, '')}\n${spec.examples[0] ?? spec.name}`;
    void draw();
  }
  insert.value = '';
});
lookSelect.addEventListener('change', () => {
  look = { preset: lookSelect.value };
  void draw();
});
schemeSelect.addEventListener('change', () => applyScheme(schemeSelect.value as Scheme));

document
  .getElementById('app')!
  .replaceChildren(
    el(
      'header',
      { class: 'pg-header' },
      el(
        'div',
        {},
        el('h1', {}, 'Screen Lines playground'),
        el(
          'p',
          { class: 'svc-muted' },
          'Type lines on the left; the screen draws on the right as a phone would. Nothing leaves this browser.',
        ),
      ),
      el(
        'div',
        { class: 'pg-controls' },
        el('label', { for: 'pg-look' }, 'Look'),
        lookSelect,
        el('label', { for: 'pg-scheme' }, 'Scheme'),
        schemeSelect,
        el('a', { href: './', class: 'pg-link' }, 'Open the app'),
      ),
    ),
    el(
      'main',
      { class: 'pg-main' },
      el(
        'section',
        { class: 'pg-pane', 'aria-labelledby': 'pg-lines-title' },
        el('h2', { id: 'pg-lines-title' }, el('label', { for: 'lines' }, 'Screen Lines')),
        editor,
        errors,
        el('div', { class: 'pg-row' }, insert),
        el('h2', {}, 'Tables in this browser'),
        tablesList,
        el('div', { class: 'pg-row' }, keep, clear),
      ),
      el(
        'section',
        { class: 'pg-pane', 'aria-labelledby': 'pg-screen-title' },
        el('h2', { id: 'pg-screen-title' }, 'Screen'),
        stage,
        el('h2', {}, 'What the agent hears'),
        taps,
      ),
    ),
  );
void showTables();
void draw();
