/**
 * Browser entry of the QR decoder: the .wasm is bundled by Vite next to the app (self-hosted, no
 * CDN), so the native app and venues without internet can decode.
 *
 * Two steps, so the scanner screen can have the first without paying for the second
 * (docs/decisions/110): `downloadQrDecoder` fetches the .wasm's bytes (the slow part on a venue's
 * network, about 320 kB in brotli), `createQrDecoder` compiles and starts the module from them
 * (about 0.1 s of main-thread work on a desktop, several times that on a phone: zxing-cpp's start-up
 * runs there), which the camera's start pays, beside `getUserMedia`.
 */
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { createZxingQrDecoder, type QrDecoder } from './qr-decoder.ts';

/** The .wasm's bytes being fetched or fetched, shared by the prefetch and the decoder's start. */
let download: Promise<ArrayBuffer> | undefined;
/** The decoder being started or started, shared by every scanner screen. */
let shared: Promise<QrDecoder> | undefined;

/**
 * Fetches the decoder's .wasm (once; later calls share the same fetch) without compiling it.
 * A failed fetch is forgotten, so the next call tries again (a venue's Wi-Fi coming back).
 * @throws (rejects) when the .wasm cannot be fetched (network, or a status other than 2xx).
 */
export function downloadQrDecoder(): Promise<ArrayBuffer> {
  download ??= fetch(wasmUrl, { credentials: 'same-origin' })
    .then((response) => {
      if (!response.ok) throw new Error(`The QR decoder could not be loaded: ${response.status} for ${wasmUrl}.`);
      return response.arrayBuffer();
    })
    .catch((error: unknown) => {
      download = undefined;
      throw error;
    });
  return download;
}

/**
 * The app's QR decoder, started on the first call (the .wasm fetched unless `downloadQrDecoder`
 * has it already, then compiled and its module started) and shared by every later one: 'Start
 * Camera' on any scanner screen gets the same instance. A failed start is forgotten, so the next
 * call tries again.
 *
 * @throws (rejects) when the bundled .wasm cannot be fetched or compiled.
 */
export function createQrDecoder(): Promise<QrDecoder> {
  shared ??= downloadQrDecoder()
    .then((wasmBinary) =>
      createZxingQrDecoder({
        // The bytes fetched above: zxing-wasm compiles them instead of fetching the file again.
        wasmBinary,
        // A new function per load: zxing-wasm caches its module by these overrides, and a failed load
        // must not be handed out again from that cache. Never reached with `wasmBinary` set; it
        // keeps the library off its public CDN should that change.
        locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
      }),
    )
    .catch((error: unknown) => {
      shared = undefined;
      throw error;
    });
  return shared;
}
