/**
 * The embedded database opened again after a PANIC (docs/decisions/104). PostgreSQL PANICs when it
 * cannot write what it must (a new WAL segment on a full disk, a WAL sync that fails: decision 026);
 * a server's postmaster then restarts and recovers from the WAL by itself. PGlite runs the one
 * backend in our process and stays broken: every later statement fails ("cannot drop active
 * portal"). So the handle the app uses delegates to the current PGlite and, after a PANIC, opens the
 * folder again (PostgreSQL's crash recovery replays the WAL: every commit that was answered is
 * there), retrying at most every `REOPEN_RETRY_MS` while that fails (the disk is still full).
 * Statements meanwhile fail with the PANIC error, which the errors plugin answers 503.
 */
import type { PGlite } from '@electric-sql/pglite';

/** Least time between two attempts to open the folder again (ms). */
export const REOPEN_RETRY_MS = 2_000;

/** What the PGlite methods the app calls (query, exec, transaction) throw after a PANIC: PostgreSQL's error fields. */
function isPanic(error: unknown): boolean {
  return error instanceof Error && (error as { severity?: unknown }).severity === 'PANIC';
}

/** A PGlite that opens itself again after a PANIC, and how to close whichever one is current. */
export interface ReopeningPglite {
  /** Use this one: it delegates to the current PGlite. */
  client: PGlite;
  /** Closes the current PGlite (and waits for an opening under way). */
  close(): Promise<void>;
}

/**
 * Wraps `first`: after a statement fails with a PANIC, `open()` makes the next one (the broken one
 * is closed, errors ignored: its WebAssembly may be past saying goodbye). `onReopened` is told of
 * each success and failure, for the log.
 */
export function reopeningAfterPanic(first: PGlite, open: () => Promise<PGlite>, onReopened: (outcome: { error?: unknown }) => void = () => undefined): ReopeningPglite {
  let current = first;
  let panic: unknown;
  let opening: Promise<void> | undefined;
  let lastAttemptMs = -Infinity;

  const reopen = (): Promise<void> => {
    opening ??= (async () => {
      lastAttemptMs = performance.now();
      const broken = current;
      try {
        await broken.close().catch(() => undefined);
        current = await open();
        panic = undefined;
        onReopened({});
      } catch (error) {
        onReopened({ error });
      } finally {
        opening = undefined;
      }
    })();
    return opening;
  };

  /** Runs `call` on the current PGlite, after opening it again when the last one PANICked. */
  const delegated = (property: 'query' | 'exec' | 'transaction') =>
    async (...args: unknown[]): Promise<unknown> => {
      if (opening) await opening;
      if (panic !== undefined && performance.now() - lastAttemptMs >= REOPEN_RETRY_MS) await reopen();
      if (panic !== undefined) throw panic;
      try {
        return await (current[property] as (...callArgs: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        if (isPanic(error) && panic === undefined) {
          panic = error;
          void reopen();
        }
        throw error;
      }
    };
  const methods = { query: delegated('query'), exec: delegated('exec'), transaction: delegated('transaction') };

  const client = new Proxy(first, {
    get(_target, property) {
      if (property === 'query' || property === 'exec' || property === 'transaction') return methods[property];
      const value: unknown = Reflect.get(current, property, current);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
  return {
    client,
    close: async () => {
      if (opening) await opening;
      await current.close();
    },
  };
}
