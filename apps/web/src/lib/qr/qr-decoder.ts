/**
 * The one interface every part of the app decodes QR codes through (STYLE "Boundaries"), and the
 * zxing-wasm (zxing-cpp) implementation behind it. Which .wasm gets loaded, and how, is decided by
 * the two entry files: `create-qr-decoder.ts` (browser, self-hosted asset) and
 * `node-qr-decoder.ts` (Node: bench and tests, bytes from node_modules). See
 * docs/decisions/008-qr-decoder.md.
 */
import { prepareZXingModule, readBarcodes, type ReaderOptions, type ZXingModuleOverrides } from 'zxing-wasm/reader';

/** Decodes the QR code in one camera frame or image. */
export interface QrDecoder {
  /**
   * @param image RGBA pixels (`width` × `height` px, 4 bytes per pixel), e.g. from a canvas.
   * @returns the text of the first QR code found, exactly as encoded; `null` when none is found.
   * @throws only if the decoder itself is broken (e.g. the .wasm failed to load), never for "no code".
   */
  decode(image: ImageData): Promise<string | null>;
}

/**
 * Reader options, chosen over the whole blackbox set (never per file; see ADR 008):
 * - QR only: the other formats cost about 4× the time per frame and tickets are QR codes.
 * - `textMode: 'Plain'`: the payload as encoded. The default ('HRI') rewrites control characters
 *   as `<SOH>`-style escapes, which would no longer match the ticket code on the server.
 * - `tryDenoise`: a second pass after a closing filter; more blurred or damaged codes decode, at
 *   well under a millisecond per frame, which the 2 scans per second of SPEC §9 easily afford.
 */
const QR_READER_OPTIONS: ReaderOptions = {
  formats: ['QRCode'],
  textMode: 'Plain',
  tryHarder: true,
  tryRotate: true,
  tryInvert: true,
  tryDenoise: true,
};

/**
 * Instantiates the zxing-wasm reader module with `overrides` (which must say where the .wasm
 * comes from, so the library never falls back to its public CDN) and returns a decoder on it.
 * Resolves once the module is compiled, so the first `decode` is not slowed down by loading.
 *
 * @throws when the .wasm cannot be fetched or compiled.
 */
export async function createZxingQrDecoder(overrides: ZXingModuleOverrides): Promise<QrDecoder> {
  await prepareZXingModule({ overrides, fireImmediately: true });
  return {
    async decode(image) {
      const results = await readBarcodes(image, QR_READER_OPTIONS);
      return results[0]?.text ?? null;
    },
  };
}
