// Answering a screen from its notification (issue 39, ADR 0257): the request a service worker (or any HTTP
// client) makes with the single-use answer token a push carried. The token is the whole credential: it
// answers one screen, with one of the values the notification offered, once, until the screen is answered
// elsewhere, withdrawn or the token expires. The tap is the same event a tap in the app writes.
import { isOwnerOnlyTap, threadAccess } from '@screen-service/registry/agents';
import { hashSecret, isoTime, ServiceError } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import type { ThreadCore } from './thread-core.js';

/** The body of `POST /push/answer`: the token, the screen it was issued for, and the value an action sends. */
export interface NotificationAnswerInput {
  token: unknown;
  screen_id: unknown;
  value: unknown;
}

/** What an accepted answer recorded: the tap line the agent reads and the words the notification shows. */
export interface NotificationAnswerResult {
  screen_id: string;
  value: string | number | boolean;
  /** The notification's new text: "Sent: <echo>". */
  sent: string;
  line: string;
  at: string;
}

/** Answers from notifications. */
export interface NotificationAnswers {
  answer(input: NotificationAnswerInput): Promise<NotificationAnswerResult>;
}

const TOKEN = /^svc_nt_[A-Za-z0-9_-]{43}$/;

const refused = (message: string) => new ServiceError('UNAUTHORIZED', message, { field: 'token' });

/**
 * Creates the notification answer use case over the thread writes.
 *
 * @example
 * ```ts
 * const answers = createNotificationAnswers({ store, core: createThreadCore(deps) });
 * await answers.answer({ token: 'svc_nt_...', screen_id: 'scr_...', value: 'Soup' });
 * ```
 */
export function createNotificationAnswers(deps: { store: Store; core: ThreadCore }): NotificationAnswers {
  const { store, core } = deps;
  return {
    async answer(input) {
      if (typeof input.token !== 'string' || !TOKEN.test(input.token)) {
        throw refused('token must be the answer token of the notification (svc_nt_ and 43 characters).');
      }
      const notice = await store.push.findNotice(hashSecret(input.token));
      if (!notice || notice.screenId === null || notice.tapId === null) {
        throw refused('This answer token is not known: open the app to answer.');
      }
      if (input.screen_id !== notice.screenId) {
        throw new ServiceError('FORBIDDEN', 'This answer token is for another screen.', {
          field: 'screen_id',
        });
      }
      if (notice.usedAt !== null || notice.closedAt !== null) {
        throw new ServiceError(
          'CONFLICT',
          notice.usedAt !== null
            ? 'This notification was already answered.'
            : 'This screen was already answered or withdrawn.',
          { field: 'token' },
        );
      }
      if (notice.expiresAt <= core.now()) throw refused('This answer token expired: open the app to answer.');
      const value = notice.choices.find((c) => c === input.value);
      if (
        value === undefined ||
        (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      ) {
        throw new ServiceError(
          'INVALID_INPUT',
          `value must be one the notification offered: ${notice.choices.map((c) => JSON.stringify(c)).join(', ')}.`,
          { field: 'value' },
        );
      }
      const screen = await store.threads.getScreen(notice.screenId);
      if (!screen)
        throw new ServiceError('SCREEN_NOT_FOUND', 'This screen was withdrawn.', { field: 'screen_id' });
      // The thread may have been taken back since (a revoked share): the same check as a tap in the app.
      const { grant } = await threadAccess(store, notice.userId, notice.agentId);
      const target = screen.taps.find((t) => t.id === notice.tapId);
      const ignored = grant !== null && target !== undefined && isOwnerOnlyTap(target);
      // The receipt names the device the notification was sent to (its subscription's app device id).
      const sub = (await store.push.listSubscriptions(notice.userId)).find(
        (s) => s.id === notice.subscriptionId,
      );
      const w = await core.recordTap(
        screen,
        { id: notice.tapId, value },
        {
          via: 'notification',
          handled: ignored,
          notice: { id: notice.id, subscriptionId: notice.subscriptionId },
          who: { device: sub?.device ?? null },
        },
      );
      return {
        screen_id: screen.id,
        value,
        sent: `Sent: ${w.echo}`,
        line: w.line,
        at: isoTime(w.message.createdAt),
      };
    },
  };
}
