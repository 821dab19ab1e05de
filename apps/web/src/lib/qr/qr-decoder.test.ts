import QRCode from 'qrcode';
import { beforeAll, expect, test } from 'vitest';
import { createNodeQrDecoder } from './node-qr-decoder.ts';
import type { QrDecoder } from './qr-decoder.ts';

/** Renders `text` as a QR code (4-module quiet zone, `scale` px per module) into RGBA pixels. */
function renderQr(text: string, scale = 4): ImageData {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quietZone = 4;
  const side = (modules.size + 2 * quietZone) * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const row = Math.floor(y / scale) - quietZone;
      const col = Math.floor(x / scale) - quietZone;
      const isInside = row >= 0 && col >= 0 && row < modules.size && col < modules.size;
      if (isInside && modules.get(row, col)) data.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
    }
  }
  return { data, width: side, height: side, colorSpace: 'srgb' };
}

let decoder: QrDecoder;
beforeAll(async () => {
  decoder = await createNodeQrDecoder();
});

test('decoder reads a ticket code from a generated QR image', async () => {
  await expect(decoder.decode(renderQr('GC-7F3K-92QX-LM4P'))).resolves.toBe('GC-7F3K-92QX-LM4P');
});

test('decoder returns the payload exactly, including UTF-8 text and control characters', async () => {
  const payload = 'Zoë Ødegård · 票 \u0001\u0010end';
  await expect(decoder.decode(renderQr(payload))).resolves.toBe(payload);
});

test('decoder returns null when the image holds no QR code', async () => {
  const blank = new Uint8ClampedArray(200 * 200 * 4).fill(255);
  await expect(decoder.decode({ data: blank, width: 200, height: 200, colorSpace: 'srgb' })).resolves.toBeNull();
});

test('decoder can be reused for many frames', async () => {
  const codes = ['A-1', 'B-22', 'C-333'];
  const decoded = [];
  for (const code of codes) decoded.push(await decoder.decode(renderQr(code, 3)));
  expect(decoded).toEqual(codes);
});
