/**
 * When the outbox is sent (issue 12: "never a lost check-in"): one round at a time, and after a
 * failed round the next one 1 s, 2 s, 4 s … 30 s later (`outboxRetryDelay`, SPEC §9's backoff),
 * for both senders — the scanner's (use-offline-door.ts) and every other signed-in screen's
 * (use-outbox-sender.ts), which differ only in what a round does around `uploadOutbox`.
 */
import { outboxRetryDelay } from './outbox.ts';

/**
 * What a round reports: whether it failed (items stay queued), so that the next one backs off, and
 * whether that was for want of an answer (no connection, a gateway's 502–504).
 */
export interface RoundOutcome {
  failed: boolean;
  unanswered?: boolean;
}

/** The rounds of one sender. */
export interface OutboxRounds {
  /**
   * Runs a round now; while one is under way, another runs right after it (a scan queued meanwhile
   * may have missed the round that is reading the outbox). Nothing once stopped. A timer waiting
   * for the next round is dropped. Resolves when the round it started has settled, or at once when
   * it only asked for the one after.
   */
  run(): Promise<void>;
  /**
   * The server answered a probe: a round now, unless the last round failed with an answer (a 5xx,
   * a 401) and its backoff is still running — the probe proves the server is there, not that it
   * takes uploads. After a round that got no answer, its backoff is cut short.
   */
  nudge(): void;
  /** No round starts after this (one under way finishes); its timer is dropped. */
  stop(): void;
}

/**
 * Rounds of `round`: after a failed round (it reports `failed`, or throws) the next runs after
 * `outboxRetryDelay(n)` ms for the n-th failure in a row (from 0); after a round that did not fail,
 * the next runs `whenIdleMs` later when given, else only when `run` is called.
 */
export function createOutboxRounds(round: () => Promise<RoundOutcome>, options: { whenIdleMs?: number } = {}): OutboxRounds {
  let isStopped = false;
  let isRunning = false;
  let isAskedAgain = false;
  let failures = 0;
  /** The last round failed for want of an answer. */
  let wasUnanswered = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      timer = null;
      void run();
    }, ms);
  };
  const run = async (): Promise<void> => {
    if (isStopped) return;
    if (isRunning) {
      isAskedAgain = true;
      return;
    }
    isRunning = true;
    isAskedAgain = false;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    let failed: boolean;
    try {
      const outcome = await round();
      failed = outcome.failed;
      wasUnanswered = outcome.failed && outcome.unanswered === true;
    } catch {
      failed = true;
      wasUnanswered = false;
    } finally {
      isRunning = false;
    }
    if (isStopped) return;
    if (isAskedAgain && !failed) {
      void run();
      return;
    }
    if (failed) {
      schedule(outboxRetryDelay(failures));
      failures += 1;
    } else {
      failures = 0;
      if (options.whenIdleMs !== undefined) schedule(options.whenIdleMs);
    }
  };
  return {
    run,
    nudge() {
      if (timer !== null && !wasUnanswered) return;
      void run();
    },
    stop() {
      isStopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
