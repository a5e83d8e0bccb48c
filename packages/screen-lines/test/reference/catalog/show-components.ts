// Catalog entries for components that show something: text, images, charts, numbers, math, links.

import { CHART_TYPES, GALLERY_VIEWS, nonEmpty, OPTION, QUESTION, slot, text, url } from './shared.js';
import type { ComponentSpec } from './types.js';
import { z } from './zod.js';

export const textComponent: ComponentSpec = {
  name: 'text',
  summary: 'a line of markdown',
  usage: 'text <markdown>',
  examples: ['text **Good morning!** Here is your plan.'],
  slots: [slot('text', 'rest', true, '<markdown>')],
  settings: [],
  flags: [],
  props: z.object({ text: nonEmpty(2000, 'markdown') }),
  defaults: {},
  limits: { text: 2000 },
  staged: false,
  tapKey: 'value',
  events: [],
};

export const imageComponent: ComponentSpec = {
  name: 'image',
  summary: 'an image from a URL, or prompt="..." for a generated one',
  usage: 'image <https-url> ["<caption>"] | image prompt="<description>" ["<caption>"]',
  examples: ['image https://example.com/cat.jpg "Our cat"', 'image prompt="a red fox in snow" Fox'],
  slots: [slot('url', 'url', false, '<https-url>'), slot('caption', 'text', false, '"<caption>"')],
  settings: [{ name: 'prompt', kind: 'text', hint: 'description for the image-generation CDN' }],
  flags: [],
  props: z
    .object({
      url: url.optional(),
      prompt: text(500, 'prompt').optional(),
      caption: text(QUESTION, 'caption'),
    })
    .refine((p) => (p.url === undefined) !== (p.prompt === undefined), {
      message: 'needs either a URL (https://...) or prompt="<description>", not both',
    }),
  defaults: { caption: '' },
  limits: { prompt: 500, caption: QUESTION },
  staged: false,
  tapKey: 'value',
  events: [],
};

export const galleryComponent: ComponentSpec = {
  name: 'gallery',
  summary: 'several images as a row, feed, row3d or grid',
  usage: 'gallery <https-url> <https-url> ... [view=row|feed|row3d|grid]',
  examples: ['gallery https://example.com/a.jpg https://example.com/b.jpg view=grid'],
  slots: [slot('images', 'urls', true, '<https-url> ...', { min: 1, max: 20 })],
  settings: [
    { name: 'view', kind: 'word', words: GALLERY_VIEWS, hint: 'row (default), feed, row3d or grid' },
  ],
  flags: [],
  props: z.object({ images: z.array(url), view: z.enum(GALLERY_VIEWS) }),
  defaults: { view: 'row' },
  limits: { images: 20 },
  staged: false,
  tapKey: 'value',
  events: [],
};

export const chartComponent: ComponentSpec = {
  name: 'chart',
  summary: 'a chart of inline data',
  usage:
    'chart [line|bar|area|scatter|pie|donut] <label>=<number>|... ["<title>"] [unit=U] [min=N] [max=N] [+stack]',
  examples: ['chart bar Mon=3|Tue=5|Wed=2 "Runs this week" unit=km'],
  slots: [
    slot('type', 'word', false, 'line|bar|...', { words: CHART_TYPES }),
    slot('data', 'data', true, '<label>=<number>|...', { min: 1, max: 100 }),
    slot('title', 'text', false, '"<title>"'),
  ],
  settings: [
    { name: 'unit', kind: 'text', hint: 'unit of the values' },
    { name: 'min', kind: 'number', hint: 'axis minimum' },
    { name: 'max', kind: 'number', hint: 'axis maximum' },
  ],
  flags: [{ name: 'stack', hint: 'stack the series' }],
  props: z.object({
    type: z.enum(CHART_TYPES),
    data: z.array(z.object({ label: text(OPTION, 'a label'), value: z.number() })),
    title: text(QUESTION, 'title'),
    unit: text(20, 'unit').optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    stack: z.boolean(),
  }),
  defaults: { type: 'line', title: '', stack: false },
  limits: { data: 100, title: QUESTION },
  staged: false,
  tapKey: 'value',
  events: [],
};

export const statComponent: ComponentSpec = {
  name: 'stat',
  summary: 'one big number with a label',
  usage: 'stat <value> "<label>" [unit=U] [change=N] [good=up|down]',
  examples: ['stat 72.5 Weight unit=kg change=-0.4 good=down'],
  slots: [slot('value', 'value', true, '<value>'), slot('label', 'text', true, '"<label>"')],
  settings: [
    { name: 'unit', kind: 'text', hint: 'unit' },
    { name: 'change', kind: 'number', hint: 'change since last time' },
    { name: 'good', kind: 'word', words: ['up', 'down'], hint: 'which direction is good' },
  ],
  flags: [],
  props: z.object({
    value: z.union([z.number(), text(40, 'value')]),
    label: nonEmpty(OPTION, 'label'),
    unit: text(20, 'unit').optional(),
    change: z.number().optional(),
    good: z.enum(['up', 'down']).optional(),
  }),
  defaults: {},
  limits: { label: OPTION },
  staged: false,
  tapKey: 'value',
  events: [],
};

export const progressComponent: ComponentSpec = {
  name: 'progress',
  summary: 'a progress bar: done/total or a percentage',
  usage: 'progress <done>/<total>|<percent>% ["<label>"]',
  examples: ['progress 3/10 Chapters read', 'progress 40% Upload'],
  slots: [slot('value', 'amount', true, '<done>/<total>'), slot('label', 'text', false, '"<label>"')],
  settings: [],
  flags: [],
  props: z
    .object({
      value: z.number().min(0, 'progress cannot be negative'),
      max: z.number().positive('the total must be more than 0'),
      label: text(OPTION, 'label'),
    })
    .refine((p) => p.value <= p.max, { message: 'progress cannot pass its total' }),
  defaults: { label: '' },
  limits: { label: OPTION },
  staged: false,
  tapKey: 'value',
  events: [],
};

export const mathComponent: ComponentSpec = {
  name: 'math',
  summary: 'a TeX formula',
  usage: 'math <TeX>',
  examples: ['math E = mc^2'],
  slots: [slot('tex', 'rest', true, '<TeX>')],
  settings: [],
  flags: [],
  props: z.object({ tex: nonEmpty(1000, 'formula') }),
  defaults: {},
  limits: { tex: 1000 },
  staged: false,
  tapKey: 'value',
  events: [],
};

export const linkComponent: ComponentSpec = {
  name: 'link',
  summary: 'a link the person can open',
  usage: 'link <https-url> ["<label>"]',
  examples: ['link https://example.com/recipe "The recipe"'],
  slots: [slot('url', 'url', true, '<https-url>'), slot('label', 'text', false, '"<label>"')],
  settings: [],
  flags: [],
  props: z.object({ url, label: text(OPTION, 'label') }),
  defaults: { label: '' },
  limits: { label: OPTION },
  staged: false,
  tapKey: 'value',
  events: [],
};

export const dividerComponent: ComponentSpec = {
  name: 'divider',
  summary: 'a thin line between parts of a screen',
  usage: 'divider',
  examples: ['divider'],
  slots: [],
  settings: [],
  flags: [],
  props: z.object({}),
  defaults: {},
  limits: {},
  staged: false,
  tapKey: 'value',
  events: [],
};
