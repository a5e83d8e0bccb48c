// The SDK on a dropped connection at the worst moment (ADR 0274), against the real server: the service read
// the answer and wrote its response, and the response never arrives. The next poll gets it again (the cursor);
// it is handed out once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/index.js';
import { pairedAgent, type Service, startService } from './service.js';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

/** A fetch that, once, reads a svc_answers response carrying an answer and then fails as a reset connection. */
function losingFetch() {
  let armed = true;
  let lost = 0;
  const f: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const body = typeof init?.body === 'string' ? init.body : '';
    if (!armed || !body.includes('"svc_answers"')) return res;
    const text = await res.text();
    if (text.includes('"answers":[{')) {
      armed = false;
      lost++;
      throw new TypeError('fetch failed', {
        cause: new Error('connection reset after the response was sent'),
      });
    }
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: f, lost: () => lost };
}

describe('a svc_answers response lost after the service read the answer', () => {
  it('the wait still resolves with the answer, once, and the thread shows it handled', async () => {
    const { token, person } = await pairedAgent(service.base);
    const seen = new Set<string>();
    const lossy = losingFetch();
    const svc = connect({ url: service.mcpUrl, token, fetch: lossy.fetch });
    try {
      const lunch = svc.choose('Lunch?', ['Soup', 'Salad']);
      const screen = await person.nextScreen(seen);
      await person.tap(screen.id, { id: 'ask', value: 'Soup' });
      expect(await lunch).toBe('Soup');
      expect(lossy.lost()).toBe(1);
      // Nothing is handed out twice: the next wait gets only what comes after.
      const next = svc.next();
      await person.say('after');
      expect(await next).toMatchObject({ text: 'after' });
      // The poll that returned 'after' acknowledged the tap; 'after' itself is acknowledged by the pump's
      // own call once no poll follows (IDLE_ACK_MS): then the thread has nothing unread.
      const until = Date.now() + 15_000;
      while ((await svc.threads())[0]?.unread !== 0 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await svc.threads())[0]?.unread).toBe(0);
    } finally {
      await svc.close();
    }
  });
});
