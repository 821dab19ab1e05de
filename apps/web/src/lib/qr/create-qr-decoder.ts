/**
 * Browser entry of the QR decoder: the .wasm is bundled by Vite next to the app (self-hosted, no
 * CDN), so the native app and venues without internet can decode.
 */
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { createZxingQrDecoder, type QrDecoder } from './qr-decoder.ts';

/** The decoder being loaded or loaded, shared by the prefetch and every scanner screen. */
let shared: Promise<QrDecoder> | undefined;

/**
 * The app's QR decoder, loaded (the .wasm fetched and compiled) on the first call and shared by
 * every later one: the scanner screen's prefetch (`prefetch-qr-decoder.ts`) and 'Start Camera'
 * get the same instance. A failed load is forgotten, so the next call tries again (a venue's
 * Wi-Fi coming back).
 *
 * @throws (rejects) when the bundled .wasm cannot be fetched or compiled.
 */
export function createQrDecoder(): Promise<QrDecoder> {
  shared ??= createZxingQrDecoder({
    // A new function per load: zxing-wasm caches its module by these overrides, and a failed load
    // must not be handed out again from that cache.
    locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
  }).catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}
