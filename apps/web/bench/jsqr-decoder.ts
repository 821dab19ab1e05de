/**
 * jsQR 1.4.0 behind our `QrDecoder` interface: the reference the chosen decoder is compared with
 * (qr-scanner's worker runs a fork of it). Bench only; the app never ships it.
 */
import jsQR from 'jsqr';
import type { QrDecoder } from '../src/lib/qr/qr-decoder.ts';

/** jsQR with its defaults (tries normal and inverted images). */
export function createJsqrDecoder(): QrDecoder {
  return {
    decode(image) {
      return Promise.resolve(jsQR(image.data, image.width, image.height)?.data ?? null);
    },
  };
}
