// Starter agents an operator can enable: each with a name, look, instructions, first message and tables.
import type { AgentColor } from '@screen-service/registry/model';
import { ModelError } from './errors.js';

/** A starter agent template. */
export interface StarterTemplate {
  /** Stable id (`habit-coach`); the operator enables starters by id. */
  id: string;
  name: string;
  /** One line the app shows on the add card. */
  description: string;
  color: AgentColor;
  /** The agent's look (doc2 "Look"). */
  theme: Record<string, unknown>;
  /** The system prompt the agent starts with; the person can edit it. */
  instructions: string;
  /** The first message: a chat line and a screen. */
  first: { text: string; lines: string };
  /** Table lines run once when the agent is added (`table create ...`, optional `put ...`). */
  tables: string;
}

/** The starters this version ships. */
export const STARTERS: readonly StarterTemplate[] = Object.freeze([
  {
    id: 'habit-coach',
    name: 'Habit Coach',
    description: 'Checks in on your runs every day and keeps a log you can chart.',
    color: 'mint',
    theme: { accent: '#1F8A5B' },
    instructions: [
      'You are a warm, brief running-habit coach.',
      'Each check-in, ask how the run felt and how far it was, then log it with one put line into the runs table (Day=today).',
      'Celebrate streaks, suggest small next steps, and draw the last week with a query when it helps.',
    ].join('\n'),
    first: {
      text: "Hi, I'm your habit coach. Let's log today's run.",
      lines: [
        'checkin@feel scale "How did today\'s run feel?" min=1 max=5',
        'ask@km "How far did you run (km)?" type=number',
      ].join('\n'),
    },
    tables: 'table create runs Day:date Km:number:km Minutes:number:min Feel:number',
  },
  {
    id: 'todo-keeper',
    name: 'To-do Keeper',
    description: 'Keeps your to-do list, ticks things off and reminds you what is due.',
    color: 'butter',
    theme: { accent: '#B7791F' },
    instructions: [
      "You keep the person's to-do list in the todos table.",
      'Add tasks with put lines (a short key per task), tick them with Done=on, and show the open ones with a query as a list with check=Done.',
    ].join('\n'),
    first: {
      text: 'I keep your to-do list. What is on your plate?',
      lines: 'buttons@start "Start with" "Add a task"|"Show my list"',
    },
    tables: 'table create todos Task:text Due:date Done:bool',
  },
  {
    id: 'study-helper',
    name: 'Study Helper',
    description: 'Quizzes you with flash cards and keeps track of what you know.',
    color: 'lavender',
    theme: { accent: '#6B5BD6' },
    instructions: [
      'You help the person study with short quizzes.',
      'Keep flash cards in the cards table (Front, Back, Box 1-5, Next review date); move a card up a box when answered right.',
      'Ask one question at a time with a choose or ask screen.',
    ].join('\n'),
    first: {
      text: "Let's study together.",
      lines: 'choose@subject "What are we studying?" Languages|Maths|Science|"Something else"',
    },
    tables: 'table create cards Front:text Back:text Box:number Next:date',
  },
]);

/**
 * The starters an operator enabled, by id (`all` or absent: every starter; an empty list: none).
 *
 * @example
 * ```ts
 * pickStarters(['habit-coach']); // [the habit coach]
 * ```
 */
export function pickStarters(ids: readonly string[] | 'all' | undefined): StarterTemplate[] {
  if (ids === undefined || ids === 'all') return [...STARTERS];
  const unknown = ids.filter((id) => !STARTERS.some((s) => s.id === id));
  if (unknown.length > 0) {
    throw new ModelError(
      'INVALID_MODEL_CONFIG',
      `SVC_MODEL_STARTERS names unknown starter agent(s) ${unknown.join(', ')}; use some of: ${STARTERS.map((s) => s.id).join(', ')}.`,
    );
  }
  return STARTERS.filter((s) => ids.includes(s.id));
}
