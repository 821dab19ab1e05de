/**
 * Node entry of the QR decoder (decode bench and unit tests): the .wasm bytes are read from
 * node_modules, never fetched. Kept in its own file so `node:` imports stay out of the browser
 * bundle.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createZxingQrDecoder, type QrDecoder } from './qr-decoder.ts';

/**
 * Creates the QR decoder in Node from the installed zxing-wasm package.
 *
 * @throws when the .wasm file is missing or cannot be compiled.
 */
export function createNodeQrDecoder(): Promise<QrDecoder> {
  const wasmPath = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
  // Copy into a fresh ArrayBuffer: a Node Buffer may be a view into a larger shared pool.
  const wasmBinary = new Uint8Array(readFileSync(wasmPath)).buffer;
  return createZxingQrDecoder({ wasmBinary });
}
