/**
 * The server's tickets PDFs, drawn off its event loop (docs/decisions/142): a Piscina pool of one
 * worker thread (services/tickets-pdf-worker.ts) per server instance, started on the first
 * download and stopped after IDLE_MS without one. One PDF is drawn at a time; up to
 * MAX_WAITING_PDFS more wait their turn in order; beyond that a download is refused (409
 * `conflict`) before anything is sent. The main thread only passes bytes on, so check-ins keep
 * their answers while 100,000 tickets are drawn (docs/performance.md).
 *
 * The bytes stream: the answer is a Readable that asks the worker for its next slice only when
 * the download has taken the last one in, so neither thread holds the whole file. A download
 * abandoned mid-way (the Readable destroyed) cancels its task, waiting or running (Piscina ends
 * the worker thread; the next download starts a new one).
 */
import { Readable } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ServiceError } from './errors.ts';
import type { TicketsPdfContent } from './tickets-pdf.ts';
import { MORE, type TicketsPdfMessage, type TicketsPdfTask } from './tickets-pdf-worker.ts';

/** PDFs that may wait while one is drawn; one more download is refused. */
export const MAX_WAITING_PDFS = 2;
/** How long the worker thread stays after its last PDF, in ms (a thread costs some 10–20 MB). */
const IDLE_MS = 60_000;
/** Bytes the answer holds before it stops asking the worker for more (the worker sends 64 KiB slices). */
const ANSWER_BUFFER_BYTES = 256 * 1024;
/**
 * How long a full answer may go unread before its download is ended, in ms: a phone gone off the
 * Wi-Fi mid-download keeps its connection open for minutes, and would hold the only worker thread
 * and the queue (every other download refused) all that while.
 */
export const STALLED_DOWNLOAD_MS = 60_000;

/** The pool of one server instance: `draw` a PDF, `close` when the server stops. */
export interface TicketsPdfPool {
  /**
   * The PDF of what `read` resolves to, drawn in the worker thread in turn after the PDFs before
   * it, as a stream of its bytes. Its place in the queue is taken before `read` runs (reading and
   * signing 100,000 tickets is work too), and given back if `read` fails. The stream errors when
   * drawing fails (an unreadable font file, the worker thread ended); `destroy()` it to cancel.
   * @throws ServiceError `conflict` when one PDF is drawn and MAX_WAITING_PDFS wait already; what `read` throws.
   */
  draw(read: () => Promise<TicketsPdfContent>): Promise<Readable>;
  /** Ends the worker thread, cancelling any PDF still drawn or waiting. */
  close(): Promise<void>;
}

/**
 * A pool of one worker thread drawing tickets PDFs (see the module comment); `stalledMs`: how long
 * a full answer may go unread before its download is ended (STALLED_DOWNLOAD_MS).
 */
export function createTicketsPdfPool(options: { stalledMs?: number } = {}): TicketsPdfPool {
  const stalledMs = options.stalledMs ?? STALLED_DOWNLOAD_MS;
  let pool: Piscina<TicketsPdfTask, void> | undefined;
  /** Downloads taken and not yet settled: the one drawn and those waiting. */
  let pending = 0;
  /**
   * Settles when the last PDF handed to the pool has: each waits for the one before it here, not
   * in Piscina's queue, whose waiting tasks stay stuck when a cancelled task ends the only thread.
   */
  let previous: Promise<unknown> = Promise.resolve();
  const poolOf = () =>
    (pool ??= new Piscina<TicketsPdfTask, void>({
      filename: new URL('./tickets-pdf-worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
      // Each task is a whole PDF: never more than one at a time on the thread.
      concurrentTasksPerWorker: 1,
    }));

  return {
    async draw(read) {
      if (pending >= 1 + MAX_WAITING_PDFS) {
        throw new ServiceError('conflict', 'Other tickets PDFs are being made on this server. Try again when they are done.');
      }
      pending += 1;
      let content: TicketsPdfContent;
      try {
        content = await read();
      } catch (error) {
        pending -= 1;
        throw error;
      }
      const { port1, port2 } = new MessageChannel();
      const cancel = new AbortController();
      // A slice taken in while the answer was full: the worker waits until the answer is read.
      let isWorkerWaiting = false;
      // Set while the worker waits: the download ends when nothing is read for `stalledMs`.
      let stall: NodeJS.Timeout | undefined;
      // The worker sent the whole file: ending the answer then is no cancel.
      let isComplete = false;
      const answer = new Readable({
        highWaterMark: ANSWER_BUFFER_BYTES,
        read() {
          if (!isWorkerWaiting) return;
          isWorkerWaiting = false;
          clearTimeout(stall);
          port1.postMessage(MORE);
        },
        destroy(error, callback) {
          clearTimeout(stall);
          if (!isComplete) cancel.abort();
          port1.close();
          callback(error);
        },
      });
      port1.on('message', (message: TicketsPdfMessage) => {
        if (message.type === 'end') {
          isComplete = true;
          port1.close();
          answer.push(null);
          return;
        }
        if (answer.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength))) port1.postMessage(MORE);
        else {
          isWorkerWaiting = true;
          stall = setTimeout(() => answer.destroy(new Error(`The tickets PDF download read nothing for ${stalledMs} ms: ended.`)), stalledMs);
        }
      });
      const drawn = previous.then(async () => {
        // Cancelled while waiting: never drawn.
        if (cancel.signal.aborted) return;
        await poolOf().run({ content, port: port2 }, { transferList: [port2], signal: cancel.signal });
      });
      previous = drawn
        .catch((error: unknown) => {
          if (!cancel.signal.aborted) answer.destroy(error instanceof Error ? error : new Error(String(error)));
        })
        .finally(() => {
          pending -= 1;
        });
      return answer;
    },
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}
