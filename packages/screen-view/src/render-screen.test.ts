import { catalog, formatTapLine, parse } from '@screen-service/screen-lines';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { draw } from '../test/helpers.js';
import { ScreenViewError } from './errors.js';
import { DRAWN_COMPONENTS, renderScreen } from './render-screen.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('renderScreen draws the catalog', () => {
  it('has a drawer for every catalog component', () => {
    expect([...DRAWN_COMPONENTS].sort()).toEqual(Object.keys(catalog).sort());
  });

  it('draws every example line of the catalog without falling back', () => {
    for (const spec of Object.values(catalog)) {
      for (const example of spec.examples) {
        const { ops, errors } = parse(example);
        expect(errors, example).toEqual([]);
        const screen = renderScreen(ops, {
          onTap: () => {},
          query: () => ({ error: 'no tables in this test' }),
        });
        expect(screen.element.querySelector('.svc-unknown'), example).toBeNull();
        expect(screen.element.querySelector(`.svc-${spec.name}`), example).not.toBeNull();
      }
    }
  });

  it('starts staged components as a pill and keeps the question on the same screen visible', () => {
    const d = draw('timer 5m Stretch\ndeck "One"|"Two"\nchoose@q "Ready?" Yes|No');
    const pills = d.el.querySelectorAll('.svc-pill');
    expect(pills).toHaveLength(2);
    expect(pills[0]!.textContent).toContain('Stretch · 5:00');
    expect(d.c('n1').querySelector<HTMLElement>('.svc-staged-body')!.hidden).toBe(true);
    expect(d.c('q').querySelectorAll('button')).toHaveLength(2);
  });

  it('draws image prompt= from the given CDN, and a placeholder that says so without one', () => {
    const { ops } = parse('image prompt="a red fox"');
    const withCdn = renderScreen(ops, {
      onTap: () => {},
      imageFromPrompt: (p) => `https://cdn.example/p/${encodeURIComponent(p)}`,
    });
    expect(withCdn.element.querySelector('img')!.getAttribute('src')).toBe(
      'https://cdn.example/p/a%20red%20fox',
    );
    const without = renderScreen(ops, { onTap: () => {} });
    expect(without.element.querySelector('img')).toBeNull();
    const placeholder = without.element.querySelector('.svc-placeholder')!;
    expect(placeholder.getAttribute('aria-label')).toBe('Image not drawn here: a red fox');
    expect(placeholder.textContent).toBe('Image not drawn herea red fox');
  });

  it('refuses misuse with a stable code', () => {
    expect(() => renderScreen('nope' as never, { onTap: () => {} })).toThrow(ScreenViewError);
    expect(() => renderScreen([], {} as never)).toThrow(/onTap/);
  });
});

describe('taps produce the catalog events', () => {
  it('choose: one tap answers, the line is the tap line, the component shows the echo', () => {
    const d = draw('choose@lunch "Lunch?" Soup|Salad|Pizza', { screen: 's1' });
    d.click('lunch', 'Salad');
    expect(d.taps).toHaveLength(1);
    const tap = d.taps[0]!;
    expect(tap.event).toEqual({ id: 'lunch', preset: 'choose', value: 'Salad', screen: 's1' });
    expect(tap.quiet).toBe(false);
    expect(tap.line).toBe(formatTapLine(tap.event));
    expect(tap.line.split('\n')[0]).toBe('[svc] lunch choose choice=Salad');
    expect(d.c('lunch').dataset.answered).toBe('true');
    expect(d.c('lunch').querySelector('.svc-echo')!.textContent).toContain('Salad');
    expect([...d.c('lunch').querySelectorAll('button')].every((b) => b.disabled)).toBe(true);
  });

  it('choose +multi: toggles then Send gives the list', () => {
    const d = draw('choose "Toppings?" Cheese|Olives|Ham +multi');
    const send = [...d.c('n1').querySelectorAll('button')].find((b) => b.textContent === 'Send')!;
    expect(send.disabled).toBe(true);
    d.click('n1', 'Cheese');
    d.click('n1', 'Ham');
    d.click('n1', 'Cheese');
    d.click('n1', 'Olives');
    expect(d.taps).toHaveLength(0);
    send.click();
    expect(d.taps[0]!.event.value).toEqual(['Olives', 'Ham']);
  });

  it('confirm, buttons and checkin', () => {
    const d = draw(
      'confirm "Delete 3 rows?" Delete|Keep\nbuttons "Next?" Continue|Stop layout=stack\ncheckin mood "How?"\ncheckin rating "Stars?"\ncheckin scale "Pain?" max=10',
    );
    d.click('n1', 'Keep');
    d.click('n2', 'Stop');
    d.c('n3').querySelector<HTMLButtonElement>('button[data-value="4"]')!.click();
    d.c('n4').querySelector<HTMLButtonElement>('button[aria-label="3 stars"]')!.click();
    d.click('n5', '7');
    expect(d.taps.map((t) => t.event)).toEqual([
      { id: 'n1', preset: 'confirm', value: false, label: 'Keep' },
      { id: 'n2', preset: 'buttons', value: 'Stop' },
      { id: 'n3', preset: 'checkin', value: 4, kind: 'mood' },
      { id: 'n4', preset: 'checkin', value: 3, kind: 'rating' },
      { id: 'n5', preset: 'checkin', value: 7, kind: 'scale' },
    ]);
    expect(d.c('n2').querySelector('.svc-stack')).not.toBeNull();
    expect(d.c('n5').querySelectorAll('button')).toHaveLength(10);
  });

  it('checklist: ticks are quiet and stay on the screen; Done sends the ticked items', () => {
    const d = draw('checklist "Before you leave" Keys|Wallet|Phone');
    const boxes = d.c('n1').querySelectorAll<HTMLInputElement>('input[type=checkbox]');
    boxes[0]!.click();
    boxes[2]!.click();
    expect(d.taps.map((t) => [t.quiet, t.event.value])).toEqual([
      [true, { item: 'Keys', checked: true }],
      [true, { item: 'Phone', checked: true }],
    ]);
    expect(d.c('n1').dataset.answered).toBeUndefined();
    d.click('n1', 'Done');
    expect(d.taps[2]).toMatchObject({ quiet: false, event: { value: ['Keys', 'Phone'] } });
    expect(d.c('n1').dataset.answered).toBe('true');
  });

  it('ask and form send typed values; labels name every field', () => {
    const d = draw(
      'ask "Weight today?" type=number placeholder=kg\nform "Visit" name:text age:number ok:bool day:date',
    );
    const ask = d.c('n1');
    const input = ask.querySelector<HTMLInputElement>('input')!;
    expect(ask.querySelector(`label[for="${input.id}"]`)!.textContent).toBe('Weight today?');
    ask.querySelector('form')!.requestSubmit();
    expect(d.taps).toHaveLength(0);
    input.value = '72.5';
    ask.querySelector('form')!.requestSubmit();
    expect(d.taps[0]!.event).toEqual({ id: 'n1', preset: 'ask', value: 72.5 });
    const form = d.c('n2');
    for (const el of form.querySelectorAll('input'))
      expect(form.querySelector(`label[for="${el.id}"]`)).not.toBeNull();
    const field = (label: string) => {
      const id = [...form.querySelectorAll('label')].find((l) => l.textContent === label)!.htmlFor;
      return form.querySelector<HTMLInputElement>(`[id="${id}"]`)!;
    };
    field('Name').value = 'Ana';
    field('Age').value = '31';
    field('Ok').click();
    form.querySelector('form')!.requestSubmit();
    expect(d.taps[1]!.event.value).toEqual({ name: 'Ana', age: 31, ok: true });
    expect(d.taps[1]!.line.split('\n')[0]).toBe('[svc] n2 form name=Ana age=31 ok=yes');
  });

  it('photo: the picker takes images from the camera, Send carries the uploaded links', async () => {
    const upload = vi.fn(async (files: File[]) => files.map((f) => `https://svc.test/p/${f.name}`));
    const d = draw('photo "Show me the rash" max=2', { uploadPhotos: upload });
    const input = d.c('n1').querySelector<HTMLInputElement>('input[type=file]')!;
    expect(input.accept).toBe('image/*');
    expect(input.hasAttribute('capture')).toBe(true);
    const file = new File(['x'], 'a.jpg', { type: 'image/jpeg' });
    Object.defineProperty(input, 'files', { value: [file] });
    input.dispatchEvent(new Event('change'));
    d.click('n1', 'Send');
    await vi.waitFor(() => expect(d.taps).toHaveLength(1));
    expect(d.taps[0]!.event).toEqual({
      id: 'n1',
      preset: 'photo',
      value: 1,
      photos: ['https://svc.test/p/a.jpg'],
    });
    expect(upload).toHaveBeenCalledWith([file], 'n1');
  });

  it('timer: the pill starts it quietly; reaching zero sends done', () => {
    vi.useFakeTimers();
    let now = 1_000_000;
    const d = draw('timer 2s Breathe', { now: () => now });
    d.c('n1').querySelector<HTMLButtonElement>('.svc-pill')!.click();
    expect(d.taps).toEqual([
      expect.objectContaining({
        quiet: true,
        event: { id: 'n1', preset: 'timer', value: 'start', seconds: 2 },
      }),
    ]);
    now += 1000;
    vi.advanceTimersByTime(1000);
    expect(d.c('n1').querySelector('.svc-clock')!.textContent).toBe('0:01');
    now += 1100;
    vi.advanceTimersByTime(1000);
    expect(d.taps[1]).toMatchObject({ quiet: false, event: { value: 'done', seconds: 2 } });
    expect(d.c('n1').dataset.state).toBe('done');
  });

  it('deck: turning is quiet, finishing sends the count', () => {
    const d = draw('deck "Breathe in"|"Hold"|"Breathe out"');
    d.c('n1').querySelector<HTMLButtonElement>('.svc-pill')!.click();
    expect(d.c('n1').querySelector('.svc-card-face')!.textContent).toBe('Breathe in');
    d.click('n1', 'Next');
    d.click('n1', 'Next');
    d.click('n1', 'Done');
    expect(d.taps.map((t) => [t.quiet, t.event.value])).toEqual([
      [true, 1],
      [true, 2],
      [false, 3],
    ]);
  });
});

describe('patches, answers and themes', () => {
  it('a patch redraws the component in place and a null prop goes back to its default', () => {
    const d = draw('buttons "Go?" A|B layout=stack');
    const { ops } = parse('@n1 prompt="Now?" layout=');
    expect(d.handle.patch(ops[0] as never)).toBe(true);
    expect(d.c('n1').querySelector('.svc-q')!.textContent).toBe('Now?');
    expect(d.c('n1').querySelector('.svc-row')).not.toBeNull();
    expect(d.handle.patch({ op: 'patch', id: 'zz', props: {} })).toBe(false);
  });

  it('answers from elsewhere draw the component answered; quiet ones do not', () => {
    const d = draw('choose@lunch "Lunch?" Soup|Salad\nchecklist Keys|Phone', {
      answers: [{ id: 'lunch', preset: 'choose', value: 'Soup' }],
    });
    expect(d.c('lunch').dataset.answered).toBe('true');
    expect(d.c('lunch').querySelector('[data-value="Soup"]')!.classList.contains('svc-picked')).toBe(true);
    d.handle.answer({ id: 'n2', preset: 'checklist', value: { item: 'Keys', checked: true } });
    expect(d.c('n2').dataset.answered).toBeUndefined();
    expect(d.handle.answer({ id: 'n9', preset: 'choose', value: 'x' })).toBe(false);
  });

  it('a theme line goes to onTheme and groups hold their components', () => {
    const looks: unknown[] = [];
    const d = draw('theme accent=#336699\ngroup row Today\ntext one\ntext two\nend\ntext after', {
      onTheme: (l) => looks.push(l),
    });
    expect(looks).toEqual([{ accent: '#336699' }]);
    const group = d.el.querySelector('.svc-group-row')!;
    expect(group.querySelectorAll('.svc-text')).toHaveLength(2);
    expect(d.el.lastElementChild!.classList.contains('svc-text')).toBe(true);
  });
});
