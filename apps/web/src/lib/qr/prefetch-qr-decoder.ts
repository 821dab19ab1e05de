/**
 * Loads the QR decoder ahead of need (issue 15 item 5): its script chunk and its .wasm (about
 * 320 kB in brotli) are fetched and compiled while the staff member reads the scanner screen, so
 * the first 'Start Camera' does not wait for them on a slow venue network. Kept apart from
 * `create-qr-decoder.ts` so the decoder stays out of the first page load (dynamic import).
 */

/**
 * Starts loading the app's QR decoder in the background; returns at once. Safe to call any number
 * of times (the load is shared, see `createQrDecoder`). A failure is ignored here: 'Start Camera'
 * loads again and reports it in the SPEC's words.
 */
export function prefetchQrDecoder(): void {
  import('./create-qr-decoder.ts')
    .then(({ createQrDecoder }) => createQrDecoder())
    .catch(() => {
      // Nothing to tell the user yet: the camera start tries again and shows 'Camera Error'.
    });
}
