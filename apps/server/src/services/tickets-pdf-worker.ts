/**
 * The worker thread's side of the tickets PDF (services/tickets-pdf-pool.ts, docs/decisions/142):
 * Piscina runs the default export in a thread of its own, so drawing 100,000 tickets never holds
 * up the check-ins the server's event loop answers.
 *
 * The bytes go back over `port` as `TicketsPdfMessage`s, in slices of up to WORKER_SLICE_BYTES:
 * after each slice the worker waits for a `'more'` from the main thread, which sends it once the
 * download has taken the slice in, so a slow download holds the drawing, never the memory.
 * Loaded by Node itself (its type stripping; no bundle, no tsx): it imports only tickets-pdf.ts,
 * whose imports of our code are types.
 */
import { Writable } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import { renderTicketsPdf, type TicketsPdfContent } from './tickets-pdf.ts';

/** What the main thread asks: draw `content`, send its bytes over `port` (transferred). */
export interface TicketsPdfTask {
  content: TicketsPdfContent;
  port: MessagePort;
}

/** A message of the worker to the main thread: the next bytes of the file, or its end. */
export type TicketsPdfMessage = { type: 'bytes'; bytes: Uint8Array } | { type: 'end' };

/** The main thread's answer to a `bytes` message: send the next slice. */
export const MORE = 'more';

/** Bytes gathered before they are sent as one message (PDFKit writes many small pieces). */
const WORKER_SLICE_BYTES = 64 * 1024;

/**
 * Draws `task.content` (tickets-pdf.ts `renderTicketsPdf`) and sends its bytes over `task.port`,
 * one slice at a time, then `{ type: 'end' }` (the main thread closes the port then); closes the
 * port itself when drawing fails.
 * @throws what drawing throws (an unreadable font file); the pool rejects the task with it.
 */
export default async function drawTicketsPdf({ content, port }: TicketsPdfTask): Promise<void> {
  let sent: (() => void) | undefined;
  port.on('message', (message: unknown) => {
    if (message !== MORE) return;
    const callback = sent;
    sent = undefined;
    callback?.();
  });
  const send = (chunks: Buffer[], callback: (error?: Error | null) => void) => {
    // A fresh buffer of the exact size, moved (not copied) to the main thread.
    const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    sent = callback;
    port.postMessage({ type: 'bytes', bytes } satisfies TicketsPdfMessage, [bytes.buffer]);
  };
  const output = new Writable({
    highWaterMark: WORKER_SLICE_BYTES,
    write(chunk: Buffer, _encoding, callback) {
      send([chunk], callback);
    },
    writev(chunks, callback) {
      send(
        chunks.map(({ chunk }) => chunk as Buffer),
        callback,
      );
    },
    final(callback) {
      port.postMessage({ type: 'end' } satisfies TicketsPdfMessage);
      callback();
    },
  });
  try {
    await renderTicketsPdf(output, content);
  } catch (error) {
    port.close();
    throw error;
  }
}
