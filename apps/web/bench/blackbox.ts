/**
 * The ZXing QR blackbox set (../shared/data/qr-blackbox, see its README): every `qrcode-*\/N.png`
 * with its expected text in `N.txt`, loaded as RGBA pixels and rotated in steps of 90°.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

/** Rotations the set is decoded at, in degrees clockwise (as in ZXing's own blackbox suite). */
export const ROTATIONS = [0, 90, 180, 270] as const;
export type Rotation = (typeof ROTATIONS)[number];

export interface BlackboxCase {
  /** `qrcode-N/M.png`, for messages only. */
  name: string;
  image: ImageData;
  /** The expected text, UTF-8, compared exactly. */
  expected: string;
}

/**
 * The data set folder: `QR_BLACKBOX_DIR`, else `<repo>/../shared/data/qr-blackbox`.
 *
 * @throws when the folder does not exist.
 */
export function blackboxDir(): string {
  const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
  const dir = process.env['QR_BLACKBOX_DIR'] ?? resolve(repoRoot, '..', 'shared', 'data', 'qr-blackbox');
  if (!existsSync(dir)) throw new Error(`QR blackbox set not found at ${dir} (set QR_BLACKBOX_DIR)`);
  return dir;
}

/**
 * Loads every case of the set, in folder then file-number order.
 *
 * @throws when a PNG has no matching `.txt` or cannot be decoded.
 */
export function loadBlackbox(dir: string): BlackboxCase[] {
  const byNumber = (a: string, b: string) => Number.parseInt(a.replace(/\D+/g, ''), 10) - Number.parseInt(b.replace(/\D+/g, ''), 10);
  const folders = readdirSync(dir).filter((name) => /^qrcode-\d+$/.test(name)).sort(byNumber);
  return folders.flatMap((folder) =>
    readdirSync(join(dir, folder))
      .filter((file) => /^\d+\.png$/.test(file))
      .sort(byNumber)
      .map((file) => {
        const png = PNG.sync.read(readFileSync(join(dir, folder, file)));
        const expected = readFileSync(join(dir, folder, file.replace(/\.png$/, '.txt')), 'utf8');
        const image: ImageData = { data: new Uint8ClampedArray(png.data), width: png.width, height: png.height, colorSpace: 'srgb' };
        return { name: `${folder}/${file}`, image, expected };
      }),
  );
}

/** Returns a copy of `image` rotated clockwise by `degrees` (whole RGBA pixels are moved). */
export function rotateImage(image: ImageData, degrees: Rotation): ImageData {
  if (degrees === 0) return image;
  const { width, height, data } = image;
  const isQuarterTurn = degrees !== 180;
  const outWidth = isQuarterTurn ? height : width;
  const outHeight = isQuarterTurn ? width : height;
  const source = new Uint32Array(data.buffer, data.byteOffset, width * height);
  const out = new Uint8ClampedArray(outWidth * outHeight * 4);
  const target = new Uint32Array(out.buffer);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let index: number;
      if (degrees === 90) index = x * outWidth + (height - 1 - y);
      else if (degrees === 180) index = (height - 1 - y) * outWidth + (width - 1 - x);
      else index = (width - 1 - x) * outWidth + y;
      target[index] = source[y * width + x] ?? 0;
    }
  }
  return { data: out, width: outWidth, height: outHeight, colorSpace: 'srgb' };
}
