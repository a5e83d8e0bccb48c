// @screen-service/core/threads: screens, chat lines, taps, answers and thread pages.
// Every export here is public API.

export {
  type ComputedTap,
  computeTap,
  type DeadlineInput,
  type DeadlinePlan,
  type DeadlineStep,
  defaultScreenLines,
  type EscalationAction,
  isQuiet,
  MAX_DEADLINE_MS,
  MIN_DEADLINE_MS,
  parseDurationMs,
  planDeadline,
  type ScreenLinesError,
  type ScreenLinesPort,
  type ScreenLinesResult,
  tapsOf,
} from '@screen-service/screen-rules';
export { answersCursor, readAnswersCursor } from './answer-cursor.js';
export {
  ANSWER_TASK_DEFAULTS,
  type AnswerTasks,
  type AnswerTaskView,
} from './answer-tasks.js';
export {
  createDeadlineSweeper,
  type DeadlineStepRun,
  type DeadlineSweeper,
  type DeadlineSweeperOptions,
} from './deadline-sweeper.js';
export { checkDeadlineTap, lateTapMessage, withdrawnTapMessage } from './deadline-taps.js';
export { newPageVersion } from './page-version.js';
export {
  createPersonThreads,
  deviceId,
  MAX_PAGE,
  MAX_PHOTOS_PER_ANSWER,
  type MessageView,
  type PersonThreads,
  type ThreadPage,
} from './person-threads.js';
export {
  createNotificationAnswers,
  type NotificationAnswerInput,
  type NotificationAnswerResult,
  type NotificationAnswers,
} from './push-answers.js';
export { type WithdrawResult, withdrawRow } from './screen-withdraw.js';
export type { Answer, ThreadDeps, ThreadTarget } from './thread-core.js';
export {
  type AnswersInput,
  type AnswersResult,
  createThreadOps,
  HOST_MESSAGE_RATE,
  MAX_LINES_CHARS,
  MAX_TEXT_CHARS,
  MAX_WAIT_SECONDS,
  type SayInput,
  type SayResult,
  type ShowInput,
  type ShowResult,
  type TapInput,
  type TapResult,
  type ThreadOps,
  type ThreadSummary,
  type ThreadsResult,
  type WriteExtras,
} from './thread-ops.js';
export {
  type CachedPage,
  createThreadPageCache,
  type PageKey,
  type ThreadPageCache,
  type ThreadPageCacheOptions,
} from './thread-page-cache.js';
export {
  createScreenViewCache,
  messageViewJson,
  type ScreenOwner,
  type ScreenViewCache,
  type ScreenViewCacheOptions,
  screenViewJson,
} from './thread-page-text.js';
export { type WaitForAnswersOptions, waitForAnswers } from './wait-for-answers.js';
