// Components the person fills in: checklist (quiet ticks, then Done), ask, form and photo.
import { type AddOp, isEmailAddress } from '@screen-service/screen-lines/catalog';
import { button, frame, list, num, question, type RenderContext, str } from '../context.js';
import { h } from '../dom.js';

/** `checklist`: real checkboxes; each tick is a quiet event, Done sends the ticked items. */
export function drawChecklist(ctx: RenderContext, op: AddOp): HTMLElement {
  const items = list(op.props, 'items');
  const title = str(op.props, 'title');
  const box = h(ctx.doc, 'ul', {
    class: 'svc-checklist',
    'aria-labelledby': title ? ctx.id(op, 'q') : undefined,
  });
  const inputs: HTMLInputElement[] = [];
  items.forEach((item, i) => {
    const id = ctx.id(op, `i${i}`);
    const input = h(ctx.doc, 'input', { type: 'checkbox', id, 'data-value': item });
    input.addEventListener('change', () => ctx.tap(op, { item, checked: input.checked }, {}, true));
    inputs.push(input);
    box.append(h(ctx.doc, 'li', {}, h(ctx.doc, 'label', { for: id }, input, h(ctx.doc, 'span', {}, item))));
  });
  const done = button(
    ctx,
    'Done',
    () =>
      ctx.tap(
        op,
        items.filter((_, i) => inputs[i]!.checked),
      ),
    {
      class: 'svc-btn svc-primary svc-send',
    },
  );
  return frame(ctx, op, title && question(ctx, op, title), box, done);
}

function inputFor(
  ctx: RenderContext,
  id: string,
  type: string,
  placeholder?: string,
): HTMLInputElement | HTMLTextAreaElement {
  if (type === 'long') return h(ctx.doc, 'textarea', { id, rows: 3, placeholder, class: 'svc-input' });
  if (type === 'bool') return h(ctx.doc, 'input', { id, type: 'checkbox' });
  const inputType = type === 'number' || type === 'date' || type === 'email' ? type : 'text';
  return h(ctx.doc, 'input', {
    id,
    type: inputType,
    placeholder,
    class: 'svc-input',
    inputmode: type === 'number' ? 'decimal' : undefined,
    step: type === 'number' ? 'any' : undefined,
  });
}

function readInput(el: HTMLInputElement | HTMLTextAreaElement, type: string): unknown {
  if (type === 'bool') return (el as HTMLInputElement).checked;
  const text = el.value.trim();
  if (type === 'number' && text !== '') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}

/** True when `text` reads as an email address: the service's own rule (`isEmailAddress` of Screen Lines). */
export function isEmail(text: string): boolean {
  return isEmailAddress(text);
}

/**
 * Checks an email field before sending: a wrong address gets a message under the field (linked by
 * `aria-describedby`, `aria-invalid` set) and false; a right one clears both. Other types always pass.
 */
function checkField(
  input: HTMLInputElement | HTMLTextAreaElement,
  type: string,
  message: HTMLElement,
): boolean {
  const text = input.value.trim();
  const ok = type !== 'email' || text === '' || isEmail(text);
  message.hidden = ok;
  message.textContent = ok ? '' : `“${text}” is not an email address. Type one like name@example.com.`;
  if (ok) {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
  } else {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', message.id);
  }
  return ok;
}

/** The line under a field that says what is wrong with it (hidden while nothing is). */
function fieldError(ctx: RenderContext, op: AddOp, part: string): HTMLElement {
  const el = h(ctx.doc, 'p', { class: 'svc-error svc-field-error', id: ctx.id(op, `${part}-error`) });
  el.hidden = true;
  return el;
}

/** `ask`: one labelled field and Send (Enter sends too); number answers are numbers, emails are checked. */
export function drawAsk(ctx: RenderContext, op: AddOp): HTMLElement {
  const type = str(op.props, 'type') || 'text';
  const fieldId = ctx.id(op, 'answer');
  const input = inputFor(ctx, fieldId, type, str(op.props, 'placeholder') || undefined);
  const error = fieldError(ctx, op, 'answer');
  const form = h(ctx.doc, 'form', { class: 'svc-form', novalidate: true });
  const send = h(ctx.doc, 'button', { type: 'submit', class: 'svc-btn svc-primary svc-send' }, 'Send');
  form.append(
    h(ctx.doc, 'label', { for: fieldId, class: 'svc-q' }, str(op.props, 'question')),
    h(ctx.doc, 'div', { class: 'svc-field-row' }, input, send),
    error,
  );
  input.addEventListener('input', () => {
    if (input.getAttribute('aria-invalid') === 'true') checkField(input, type, error);
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const value = readInput(input, type);
    if (value === '' || !checkField(input, type, error)) {
      input.focus();
      return;
    }
    ctx.tap(op, value);
  });
  return frame(ctx, op, form);
}

const FIELD_LABEL = (key: string) => key.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());

/**
 * `form`: several labelled fields sent together; empty fields are left out of the answer, email fields are
 * checked. The title names the component as a group (a named `<form>` would be a landmark, and two screens
 * may well show the same form).
 */
export function drawForm(ctx: RenderContext, op: AddOp): HTMLElement {
  const fields = Array.isArray(op.props.fields) ? (op.props.fields as { key: string; type: string }[]) : [];
  const title = str(op.props, 'title');
  const form = h(ctx.doc, 'form', { class: 'svc-form', novalidate: true });
  const inputs = fields.map((field) => {
    const id = ctx.id(op, `f-${field.key}`);
    const input = inputFor(ctx, id, field.type);
    const error = fieldError(ctx, op, `f-${field.key}`);
    form.append(
      field.type === 'bool'
        ? h(
            ctx.doc,
            'label',
            { for: id, class: 'svc-check' },
            input,
            h(ctx.doc, 'span', {}, FIELD_LABEL(field.key)),
          )
        : h(
            ctx.doc,
            'div',
            { class: 'svc-field' },
            h(ctx.doc, 'label', { for: id }, FIELD_LABEL(field.key)),
            input,
            error,
          ),
    );
    input.addEventListener('input', () => {
      if (input.getAttribute('aria-invalid') === 'true') checkField(input, field.type, error);
    });
    return { field, input, error };
  });
  form.append(h(ctx.doc, 'button', { type: 'submit', class: 'svc-btn svc-primary svc-send' }, 'Send'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const wrong = inputs.filter(({ field, input, error }) => !checkField(input, field.type, error));
    if (wrong.length > 0) {
      wrong[0]!.input.focus();
      return;
    }
    const value: Record<string, unknown> = {};
    for (const { field, input } of inputs) {
      const v = readInput(input, field.type);
      if (v !== '') value[field.key] = v;
    }
    ctx.tap(op, value);
  });
  const el = frame(ctx, op, title && question(ctx, op, title), form);
  if (title) {
    el.setAttribute('role', 'group');
    el.setAttribute('aria-labelledby', ctx.id(op, 'q'));
  }
  return el;
}

/** `photo`: a camera/file picker (`accept=image/*`, `capture`), previews, then Send with the uploaded links. */
export function drawPhoto(ctx: RenderContext, op: AddOp): HTMLElement {
  const max = num(op.props, 'max') ?? 1;
  const id = ctx.id(op, 'photo');
  const input = h(ctx.doc, 'input', {
    id,
    type: 'file',
    accept: 'image/*',
    capture: 'environment',
    multiple: max > 1,
    class: 'svc-file',
  });
  const previews = h(ctx.doc, 'div', { class: 'svc-previews', 'aria-live': 'polite' });
  const note = h(ctx.doc, 'p', { class: 'svc-hint' }, max > 1 ? `Up to ${max} photos` : 'One photo');
  let files: File[] = [];
  let busy = false;
  const send = button(
    ctx,
    'Send',
    async (b) => {
      if (busy || b.disabled) return;
      // aria-disabled, not disabled, while uploading: a disabled button drops the keyboard focus to the page,
      // and the answer moves it on to its echo (markAnswered) only from inside the component.
      busy = true;
      b.setAttribute('aria-disabled', 'true');
      try {
        const links = ctx.options.uploadPhotos ? await ctx.options.uploadPhotos(files, op.id) : [];
        ctx.tap(op, files.length, { photos: links });
      } catch (error) {
        note.textContent = `Could not send the photos: ${error instanceof Error ? error.message : String(error)}`;
        note.classList.add('svc-error');
      } finally {
        busy = false;
        b.removeAttribute('aria-disabled');
      }
    },
    { class: 'svc-btn svc-primary svc-send', disabled: true },
  );
  input.addEventListener('change', () => {
    files = [...(input.files ?? [])].slice(0, max);
    previews.replaceChildren(
      ...files.map((f) => {
        const url = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(f) : '';
        return h(ctx.doc, 'img', { src: url || undefined, alt: f.name, class: 'svc-thumb' });
      }),
    );
    note.textContent = `${files.length} of ${max} picked`;
    send.disabled = files.length === 0;
  });
  const pick = h(ctx.doc, 'label', { for: id, class: 'svc-btn svc-pick' }, 'Take or choose a photo');
  return frame(ctx, op, question(ctx, op, str(op.props, 'prompt')), input, pick, previews, note, send);
}
