/**
 * Fetches the QR decoder ahead of need (issue 15 item 5): its script chunk and its .wasm (about
 * 320 kB in brotli) are downloaded while the staff member reads the scanner screen, so the first
 * 'Start Camera' does not wait for them on a slow venue network. Only downloaded: compiling and
 * starting the module (zxing-cpp's start-up, a long task on a phone's main thread) waits for the
 * camera's start (docs/decisions/110). Kept apart from `create-qr-decoder.ts` so the decoder stays
 * out of the first page load (dynamic import).
 */

/**
 * Starts downloading the app's QR decoder in the background; returns at once. Safe to call any
 * number of times (the download is shared, see `downloadQrDecoder`). A failure is ignored here:
 * 'Start Camera' loads again and reports it in the SPEC's words.
 */
export function prefetchQrDecoder(): void {
  import('./create-qr-decoder.ts')
    .then(({ downloadQrDecoder }) => downloadQrDecoder())
    .catch(() => {
      // Nothing to tell the user yet: the camera start tries again and shows 'Camera Error'.
    });
}
