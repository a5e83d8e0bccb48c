// The in-chat view `ui://svc/screen`: draws svc_show's ops; a tap becomes the person's next message, then svc_tap.
import type { TapEvent } from '@screen-service/screen-lines';
import {
  lookCss,
  renderScreen,
  SCREEN_VIEW_CSS,
  type ScreenHandle,
  setScheme,
} from '@screen-service/screen-view';
import { connectHost, type Host, type ShowOutput } from './bridge.js';

const root = document.getElementById('screen')!;
const style = document.createElement('style');
style.textContent = SCREEN_VIEW_CSS;
document.head.append(style);
const look = document.createElement('style');
document.head.append(look);
let host: Host | undefined;
let screen: ScreenHandle | undefined;
let shown = '';

// The image-generation CDN the server wrote into the page (SVC_IMAGE_CDN); absent means a placeholder.
const cdn = document.querySelector<HTMLMetaElement>('meta[name="svc-image-cdn"]')?.content;
const imageFromPrompt = cdn
  ? (prompt: string) => cdn.replaceAll('{prompt}', encodeURIComponent(prompt))
  : undefined;

/** svc_show's chat line, above the screen as on the phone. */
function chatLine(output: ShowOutput): HTMLElement[] {
  if (typeof output.text !== 'string' || output.text.trim() === '') return [];
  const p = document.createElement('p');
  p.className = 'svc-chat-line';
  p.textContent = output.text;
  return [p];
}

async function tap(screenId: string, event: TapEvent, line: string, quiet: boolean): Promise<void> {
  if (!host) return;
  // Quiet events stay on the screen: nothing for the model, but the thread keeps them like a phone tap.
  const told = quiet ? false : await host.sendMessage(line);
  const { screen: _s, preset: _p, ...rest } = event;
  await host.callTool('svc_tap', { screen_id: screenId, event: rest, told_model: told }).catch(() => {
    root.dataset.error = 'tap-not-recorded';
  });
}

function draw(output: ShowOutput): void {
  if (output.screen_id === shown) return;
  shown = output.screen_id;
  // The frame's one heading names whose screen it is (a screen reader lists it among the chat's headings).
  const title = document.getElementById('screen-title');
  if (title) title.textContent = output.agent?.name ? `Screen from ${output.agent.name}` : 'Screen';
  look.textContent = lookCss(
    {},
    { selector: '.svc-root', ...(output.agent?.handle ? { handle: output.agent.handle } : {}) },
  );
  screen?.destroy();
  screen = undefined;
  if (Array.isArray(output.ops)) {
    screen = renderScreen(output.ops, {
      screen: output.screen_id,
      onTap: ({ event, line, quiet }) => void tap(output.screen_id, event, line, quiet),
      ...(imageFromPrompt ? { imageFromPrompt } : {}),
    });
    root.replaceChildren(...chatLine(output), screen.element);
    root.dataset.ready = 'true';
    return;
  }
  // No ops (a result from an older server): the view carries no parser (size budget, ADR 0074), so it shows
  // the lines as written; the person can still answer in the chat or on the phone.
  const note = document.createElement('p');
  note.textContent = 'This screen can be answered on your phone. Its lines:';
  const pre = document.createElement('pre');
  pre.textContent = output.lines;
  root.replaceChildren(...chatLine(output), note, pre);
  root.dataset.ready = 'text';
}

connectHost({
  onOutput: draw,
  onTheme: (theme) => setScheme(document.documentElement, theme ?? 'auto'),
})
  .then((h) => {
    host = h;
    document.documentElement.dataset.host = h.kind;
  })
  .catch((error: unknown) => {
    root.textContent = error instanceof Error ? error.message : String(error);
  });
