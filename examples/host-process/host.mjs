// A host process serving one agent with the host client library: a typed message gets a lunch question (built
// with the Screen Lines builders), the person's tap gets a reply. Heartbeats and reconnects are the library's.
// Pair once with `svc host pair` (it writes the state file), then: SVC_HOST_STATE=~/.svc/host.json npm start
import { runHost } from '@screen-service/connect-api/client';
import { buildComponent, formatChecked } from '@screen-service/screen-lines';

/** The question the agent asks, as checked Screen Lines. */
export const LUNCH_LINES = formatChecked([
  buildComponent('choose', { question: 'Lunch?', options: ['Soup', 'Salad', 'Pizza'] }, 'lunch'),
]);

/** Answers one turn: a tap on the lunch question is confirmed; anything else gets the question. */
export async function handleTurn(turn, ctx) {
  const last = turn.rows.at(-1);
  if (last?.kind === 'tap' && last.event?.id === 'lunch') {
    await ctx.reply({ text: `${last.event.value} it is. Ordering now.` });
    return;
  }
  await ctx.reply({ text: 'Let me sort out lunch.', lines: LUNCH_LINES });
}

/** Serves the agents of the state file until `signal` aborts. */
export function serve(statePath, signal) {
  return runHost({ statePath, signal, handleTurn, log: (line) => console.error(line) });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const statePath = process.env.SVC_HOST_STATE;
  if (!statePath) {
    console.error('Set SVC_HOST_STATE to the state file `svc host pair` wrote.');
    process.exit(2);
  }
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  const host = await serve(statePath, stop.signal);
  console.error(`serving; Ctrl-C to stop (${(await host.done).reason ?? 'stopped'})`);
}
