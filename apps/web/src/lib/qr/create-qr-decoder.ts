/**
 * Browser entry of the QR decoder: the .wasm is bundled by Vite next to the app (self-hosted, no
 * CDN), so the native app and venues without internet can decode.
 */
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { createZxingQrDecoder, type QrDecoder } from './qr-decoder.ts';

/**
 * Creates the app's QR decoder. Create it once and reuse it for every frame.
 *
 * @throws when the bundled .wasm cannot be fetched or compiled.
 */
export function createQrDecoder(): Promise<QrDecoder> {
  return createZxingQrDecoder({
    locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
  });
}
