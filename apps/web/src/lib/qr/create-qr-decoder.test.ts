/**
 * The browser decoder's two steps (docs/decisions/110): the prefetch only downloads the .wasm, and
 * the decoder started later (by 'Start Camera') compiles those same bytes, with no second request.
 * The .wasm is the real one from node_modules, served by MSW at the address the build gives it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { http, HttpResponse } from 'msw';
import QRCode from 'qrcode';
import { afterEach, expect, test, vi } from 'vitest';
import { server } from '@/test/msw-server.ts';
import { createQrDecoder, downloadQrDecoder } from './create-qr-decoder.ts';
import { prefetchQrDecoder } from './prefetch-qr-decoder.ts';

const WASM_BYTES = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));

/** `code` as a QR image: 4 px per module, a 4-module quiet zone, RGBA. */
function qrImage(code: string): ImageData {
  const { modules } = QRCode.create(code, { errorCorrectionLevel: 'M' });
  const side = (modules.size + 8) * 4;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const row = Math.floor(y / 4) - 4;
      const col = Math.floor(x / 4) - 4;
      if (row >= 0 && col >= 0 && row < modules.size && col < modules.size && modules.get(row, col)) data.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
    }
  }
  return { data, width: side, height: side, colorSpace: 'srgb' };
}

afterEach(() => {
  vi.restoreAllMocks();
});

test('the prefetch downloads the decoder without starting it; the camera start then compiles those bytes with no second request', async () => {
  const wasmRequests: string[] = [];
  server.use(
    http.get(/zxing_reader.*\.wasm$/, ({ request }) => {
      wasmRequests.push(request.url);
      return HttpResponse.arrayBuffer(new Uint8Array(WASM_BYTES).buffer, { headers: { 'content-type': 'application/wasm' } });
    }),
  );
  const instantiate = vi.spyOn(WebAssembly, 'instantiate');
  const instantiateStreaming = vi.spyOn(WebAssembly, 'instantiateStreaming');

  prefetchQrDecoder();
  await vi.waitFor(() => expect(wasmRequests).toHaveLength(1));
  await downloadQrDecoder();
  // Downloaded, not started: zxing-cpp's start-up waits for the camera (a long task on a phone).
  expect(instantiate).not.toHaveBeenCalled();
  expect(instantiateStreaming).not.toHaveBeenCalled();

  const decoder = await createQrDecoder();
  expect(instantiate).toHaveBeenCalledTimes(1);
  expect(wasmRequests).toHaveLength(1);
  await expect(decoder.decode(qrImage('GC-7F3K-92QX-LM4P'))).resolves.toBe('GC-7F3K-92QX-LM4P');
});
