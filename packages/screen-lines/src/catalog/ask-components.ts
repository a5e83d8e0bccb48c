// Catalog entries for components a person answers: questions, check-ins, forms, photos, timers and decks.

import { ev, FIELD_TYPES, nonEmpty, OPTION, QUESTION, slot, text } from './shared.js';
import {
  ANSWER_CHARS,
  askTap,
  buttonsTap,
  checkinTap,
  checklistTap,
  chooseTap,
  confirmTap,
  deckTap,
  formTap,
  photoTap,
  timerTap,
} from './tap-rules.js';
import type { ComponentSpec } from './types.js';
import { z } from './zod.js';

export const timerComponent: ComponentSpec = {
  name: 'timer',
  summary: 'a countdown; starts as a pill, the person starts it',
  usage: 'timer <duration> <label>',
  examples: ['timer 5m Stretch', 'timer 1h30m Bake the bread'],
  slots: [slot('seconds', 'duration', true, '<duration>'), slot('label', 'text', false, '<label>')],
  settings: [],
  flags: [],
  props: z.object({
    seconds: z.number().int().min(1, 'duration must be at least 1s').max(86_400, 'duration is at most 24h'),
    label: text(120, 'label'),
  }),
  defaults: { label: '' },
  limits: { seconds: 86_400, label: 120 },
  staged: true,
  tapKey: 'timer',
  events: [
    ev('the person starts it', true, { id: 'n1', preset: 'timer', value: 'start', seconds: 300 }),
    ev('it runs out', false, { id: 'n1', preset: 'timer', value: 'done', seconds: 300 }),
  ],
  tap: timerTap,
};

export const chooseComponent: ComponentSpec = {
  name: 'choose',
  summary: 'a question with options; +multi lets the person pick several',
  usage: 'choose "<question>" <option>|<option>|... [+multi]',
  examples: [
    'choose@lunch "Lunch?" Soup|Salad|Pizza',
    'choose "Toppings?" Cheese|"Hot peppers"|Olives +multi',
  ],
  slots: [
    slot('question', 'text', true, '"<question>"'),
    slot('options', 'options', true, '<option>|<option>|...', { min: 2, max: 12 }),
  ],
  settings: [],
  flags: [{ name: 'multi', hint: 'several options may be picked' }],
  props: z.object({
    question: nonEmpty(QUESTION, 'question'),
    options: z.array(text(OPTION, 'an option')),
    multi: z.boolean(),
  }),
  defaults: { multi: false },
  limits: { question: QUESTION, options: 12, option: OPTION },
  staged: false,
  tapKey: 'choice',
  events: [
    ev('the person picks', false, { id: 'lunch', preset: 'choose', value: 'Soup' }),
    ev('the person picks several (+multi)', false, {
      id: 'n2',
      preset: 'choose',
      value: ['Cheese', 'Olives'],
    }),
  ],
  tap: chooseTap,
};

export const confirmComponent: ComponentSpec = {
  name: 'confirm',
  summary: 'a yes/no question; value is true for the first button',
  usage: 'confirm "<question>" [<yes>|<no>]',
  examples: ['confirm "Send the report now?"', 'confirm "Delete 3 rows?" Delete|Keep'],
  slots: [
    slot('question', 'text', true, '"<question>"'),
    slot('options', 'options', false, '<yes>|<no>', { min: 2, max: 2 }),
  ],
  settings: [],
  flags: [],
  props: z.object({ question: nonEmpty(QUESTION, 'question'), options: z.array(text(OPTION, 'a button')) }),
  defaults: { options: ['Yes', 'No'] },
  limits: { question: QUESTION, option: OPTION },
  staged: false,
  tapKey: 'confirmed',
  events: [ev('the person taps a button', false, { id: 'n1', preset: 'confirm', value: true, label: 'Yes' })],
  tap: confirmTap,
};

export const buttonsComponent: ComponentSpec = {
  name: 'buttons',
  summary: 'one or more buttons in a row or a stack',
  usage: 'buttons ["<prompt>"] <label>|<label>|... [layout=row|stack]',
  examples: ['buttons "What next?" Continue|Pause|Stop', 'buttons Done layout=stack'],
  slots: [
    slot('prompt', 'text', false, '"<prompt>"'),
    slot('options', 'options', true, '<label>|<label>|...', { min: 1, max: 6 }),
  ],
  settings: [{ name: 'layout', kind: 'word', words: ['row', 'stack'], hint: 'row (default) or stack' }],
  flags: [],
  props: z.object({
    prompt: text(QUESTION, 'prompt'),
    options: z.array(text(OPTION, 'a label')),
    layout: z.enum(['row', 'stack']),
  }),
  defaults: { prompt: '', layout: 'row' },
  limits: { prompt: QUESTION, options: 6, option: OPTION },
  staged: false,
  tapKey: 'button',
  events: [ev('the person taps a button', false, { id: 'n1', preset: 'buttons', value: 'Continue' })],
  tap: buttonsTap,
};

export const checkinComponent: ComponentSpec = {
  name: 'checkin',
  summary: 'a check-in: scale (1-10), mood (1-5 faces) or rating (1-5 stars)',
  usage: 'checkin scale|mood|rating "<question>" [min=N] [max=N]',
  examples: ['checkin mood "How do you feel?"', 'checkin scale "Pain today?" max=10'],
  slots: [
    slot('kind', 'word', true, 'scale|mood|rating', { words: ['scale', 'mood', 'rating'] }),
    slot('question', 'text', true, '"<question>"'),
  ],
  settings: [
    { name: 'min', kind: 'int', hint: 'lowest value' },
    { name: 'max', kind: 'int', hint: 'highest value' },
  ],
  flags: [],
  props: z.object({
    kind: z.enum(['scale', 'mood', 'rating']),
    question: nonEmpty(QUESTION, 'question'),
    min: z.number().int().min(0, 'min is at least 0').max(100, 'min is at most 100').optional(),
    max: z.number().int().min(1, 'max is at least 1').max(100, 'max is at most 100').optional(),
  }),
  defaults: {},
  limits: { question: QUESTION, max: 100 },
  staged: false,
  tapKey: 'value',
  events: [ev('the person picks a value', false, { id: 'n1', preset: 'checkin', value: 4, kind: 'mood' })],
  tap: checkinTap,
};

export const checklistComponent: ComponentSpec = {
  name: 'checklist',
  summary: 'items to tick; ticks are quiet, Done sends the ticked items',
  usage: 'checklist ["<title>"] <item>|<item>|...',
  examples: ['checklist "Before you leave" Keys|Wallet|Phone'],
  slots: [
    slot('title', 'text', false, '"<title>"'),
    slot('items', 'options', true, '<item>|<item>|...', { min: 1, max: 30 }),
  ],
  settings: [],
  flags: [],
  props: z.object({ title: text(QUESTION, 'title'), items: z.array(text(200, 'an item')) }),
  defaults: { title: '' },
  limits: { title: QUESTION, items: 30, item: 200 },
  staged: false,
  tapKey: 'done',
  events: [
    ev('the person ticks an item', true, {
      id: 'n1',
      preset: 'checklist',
      value: { item: 'Keys', checked: true },
    }),
    ev('the person taps Done', false, { id: 'n1', preset: 'checklist', value: ['Keys', 'Phone'] }),
  ],
  tap: checklistTap,
};

export const askComponent: ComponentSpec = {
  name: 'ask',
  summary: 'a question the person answers by typing',
  usage: 'ask "<question>" [type=text|long|number|date|email] [placeholder="<hint>"]',
  examples: ['ask "What should I call you?"', 'ask "Weight today?" type=number placeholder=kg'],
  slots: [slot('question', 'text', true, '"<question>"')],
  settings: [
    { name: 'type', kind: 'word', words: ['text', 'long', 'number', 'date', 'email'], hint: 'answer type' },
    { name: 'placeholder', kind: 'text', hint: 'hint shown in the empty box' },
  ],
  flags: [],
  props: z.object({
    question: nonEmpty(QUESTION, 'question'),
    type: z.enum(['text', 'long', 'number', 'date', 'email']),
    placeholder: text(80, 'placeholder').optional(),
  }),
  defaults: { type: 'text' },
  limits: { question: QUESTION, answer: ANSWER_CHARS },
  staged: false,
  tapKey: 'answer',
  events: [ev('the person sends an answer', false, { id: 'n1', preset: 'ask', value: 'Sam' })],
  tap: askTap,
};

export const formComponent: ComponentSpec = {
  name: 'form',
  summary: 'several typed fields sent together; field keys have no spaces',
  usage: 'form ["<title>"] <key>:<type> ... (types text|long|number|date|bool|email)',
  examples: ['form "Visit" name:text age:number day:date'],
  slots: [
    slot('title', 'text', false, '"<title>"'),
    slot('fields', 'fields', true, '<key>:<type> ...', { min: 1, max: 12 }),
  ],
  settings: [],
  flags: [],
  props: z.object({
    title: text(QUESTION, 'title'),
    fields: z.array(z.object({ key: z.string(), type: z.enum(FIELD_TYPES) })),
  }),
  defaults: { title: '' },
  limits: { title: QUESTION, fields: 12, answer: ANSWER_CHARS },
  staged: false,
  tapKey: 'form',
  events: [
    ev('the person sends the form', false, {
      id: 'n1',
      preset: 'form',
      value: { name: 'Ana', age: 31, day: '2026-11-21' },
    }),
  ],
  tap: formTap,
};

export const photoComponent: ComponentSpec = {
  name: 'photo',
  summary: 'asks for photos; the answer carries signed photo links (valid 1 hour)',
  usage: 'photo "<prompt>" [max=N]',
  examples: ['photo "Show me the rash" max=2'],
  slots: [slot('prompt', 'text', true, '"<prompt>"')],
  settings: [{ name: 'max', kind: 'int', hint: 'most photos (1-10, default 1)' }],
  flags: [],
  props: z.object({
    prompt: nonEmpty(QUESTION, 'prompt'),
    max: z.number().int().min(1, 'max is at least 1').max(10, 'max is at most 10'),
  }),
  defaults: { max: 1 },
  limits: { prompt: QUESTION, max: 10 },
  staged: false,
  tapKey: 'photos',
  events: [
    ev('the person sends photos', false, {
      id: 'n1',
      preset: 'photo',
      value: 1,
      photos: ['https://example.invalid/signed/p1.jpg'],
    }),
  ],
  tap: photoTap,
};

export const deckComponent: ComponentSpec = {
  name: 'deck',
  summary: 'cards shown one at a time; starts as a pill',
  usage: 'deck "<card>"|"<card>"|...',
  examples: ['deck "Breathe in"|"Hold"|"Breathe out"'],
  slots: [slot('cards', 'options', true, '"<card>"|"<card>"|...', { min: 1, max: 20 })],
  settings: [],
  flags: [],
  props: z.object({ cards: z.array(text(500, 'a card')) }),
  defaults: {},
  limits: { cards: 20, card: 500 },
  staged: true,
  tapKey: 'done',
  events: [
    ev('the person turns a card', true, { id: 'n1', preset: 'deck', value: 1 }),
    ev('the person finishes the deck', false, { id: 'n1', preset: 'deck', value: 3 }),
  ],
  tap: deckTap,
};
