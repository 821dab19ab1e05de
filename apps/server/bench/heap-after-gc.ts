/**
 * Preloaded into the soaked server only (`node --expose-gc --import ./bench/heap-after-gc.ts
 * dist/server.js`, bench/soak.bench.ts; never in a deployment): answers its parent's message
 * `{ type: 'heap-after-gc', id }` on the IPC channel by running a full garbage collection (V8's
 * `gc()`: synchronous, the whole heap) and sending back
 * `{ type: 'heap-after-gc', id, usedHeapBytes, pauseMs }`: V8's used heap in bytes right after it
 * (what the server still holds), and how long the collection stopped the server in ms.
 *
 * Why (docs/decisions/152): the used heap read at random moments rises and falls with the
 * collector's saw-tooth, so a window's median of such readings moves by 10–15 % with nothing
 * growing; right after a full collection it is the live heap, which grows only when the server
 * keeps something.
 * @throws Error at start when the process runs without `--expose-gc` or without an IPC channel.
 */
import { getHeapStatistics } from 'node:v8';

const collect = globalThis.gc;
if (typeof collect !== 'function' || !process.send) throw new Error('bench/heap-after-gc.ts needs node --expose-gc and an IPC channel to its parent');

process.on('message', (message: unknown) => {
  if (typeof message !== 'object' || message === null || !('type' in message) || message.type !== 'heap-after-gc' || !('id' in message)) return;
  const startedAt = performance.now();
  collect();
  const pauseMs = performance.now() - startedAt;
  process.send?.({ type: 'heap-after-gc', id: message.id, usedHeapBytes: getHeapStatistics().used_heap_size, pauseMs });
});
// The channel must not keep the server running once it is told to stop.
process.channel?.unref();
