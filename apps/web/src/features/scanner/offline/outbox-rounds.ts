/**
 * When the outbox is sent (issue 12: "never a lost check-in"): one round at a time, and after a
 * failed round the next one 1 s, 2 s, 4 s … 30 s later (`outboxRetryDelay`, SPEC §9's backoff),
 * for both senders — the scanner's (use-offline-door.ts) and every other signed-in screen's
 * (use-outbox-sender.ts), which differ only in what a round does around `uploadOutbox`.
 */
import { outboxRetryDelay } from './outbox.ts';

/** What a round reports: whether it failed (the server did not answer), so that the next one backs off. */
export interface RoundOutcome {
  failed: boolean;
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
      failed = (await round()).failed;
    } catch {
      failed = true;
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
    stop() {
      isStopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
