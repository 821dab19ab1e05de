/**
 * A fake camera for Chromium's `--use-file-for-fake-video-capture`: a one-frame Y4M video
 * (640x480 px, 4:2:0, 30 fps; Chromium loops it) that shows a QR code drawn from a text, the
 * picture of a PNG file (a QR code as the admin CLI exports it), or a blank white frame.
 *
 * Chromium keeps the file open while a stream runs, so `showCode` rewrites the same file in place
 * (same inode, same size): an open stream sees the new picture, whereas renaming a new file over it
 * would not be seen (see TESTING-NOTES.md in the shared folder beside the repo).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/** Frame size in px; Chromium's fake device accepts 4:2:0 Y4M only. */
const FRAME_WIDTH_PX = 640;
const FRAME_HEIGHT_PX = 480;
const HEADER = `YUV4MPEG2 W${FRAME_WIDTH_PX} H${FRAME_HEIGHT_PX} F30:1 Ip A1:1 C420jpeg\nFRAME\n`;
/** White space around the symbol, in modules (the QR standard asks for at least 4). */
const QUIET_ZONE_MODULES = 4;
/** Share of the frame height the symbol with its quiet zone fills. */
const FILL_RATIO = 0.9;
const DARK_LUMA = 0;
const LIGHT_LUMA = 255;
const NEUTRAL_CHROMA = 128;

/** A blank white Y4M file (header + one I420 frame, grey chroma) and its luma plane (row-major, 1 byte per px). */
function blankFrame(): { file: Buffer; luma: Buffer } {
  const lumaSize = FRAME_WIDTH_PX * FRAME_HEIGHT_PX;
  const chromaSize = lumaSize / 4;
  const header = Buffer.from(HEADER, 'ascii');
  const file = Buffer.alloc(header.length + lumaSize + 2 * chromaSize, LIGHT_LUMA);
  header.copy(file, 0);
  file.fill(NEUTRAL_CHROMA, header.length + lumaSize);
  return { file, luma: file.subarray(header.length, header.length + lumaSize) };
}

/**
 * The Y4M file showing the PNG `png` in grey: scaled (nearest pixel) so that its longer side fills
 * `FILL_RATIO` of the frame's height, centred, transparent parts white.
 * @throws Error when `png` is not a PNG file.
 */
function renderImageFrame(png: Buffer): Buffer {
  const { file, luma } = blankFrame();
  const image = PNG.sync.read(png);
  const scale = (Math.min(FRAME_WIDTH_PX, FRAME_HEIGHT_PX) * FILL_RATIO) / Math.max(image.width, image.height);
  const width = Math.floor(image.width * scale);
  const height = Math.floor(image.height * scale);
  const left = Math.floor((FRAME_WIDTH_PX - width) / 2);
  const top = Math.floor((FRAME_HEIGHT_PX - height) / 2);
  for (let y = 0; y < height; y += 1) {
    const sourceRow = Math.min(image.height - 1, Math.floor(y / scale));
    for (let x = 0; x < width; x += 1) {
      const at = (sourceRow * image.width + Math.min(image.width - 1, Math.floor(x / scale))) * 4;
      const [red = 0, green = 0, blue = 0, alpha = 255] = image.data.subarray(at, at + 4);
      // BT.601 luma, over a white background where the picture is transparent.
      const grey = 0.299 * red + 0.587 * green + 0.114 * blue;
      luma[(top + y) * FRAME_WIDTH_PX + left + x] = Math.round((grey * alpha + LIGHT_LUMA * (255 - alpha)) / 255);
    }
  }
  return file;
}

/** The whole Y4M file (header + one I420 frame) for `text`, or a blank white frame when `text` is null. */
function renderFrame(text: string | null): Buffer {
  const { file, luma } = blankFrame();
  if (text === null) return file;

  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const totalModules = modules.size + 2 * QUIET_ZONE_MODULES;
  const modulePx = Math.floor((Math.min(FRAME_WIDTH_PX, FRAME_HEIGHT_PX) * FILL_RATIO) / totalModules);
  if (modulePx < 2) throw new Error(`"${text.slice(0, 40)}" makes a QR code too dense for a ${FRAME_WIDTH_PX}x${FRAME_HEIGHT_PX} frame.`);
  const symbolPx = modules.size * modulePx;
  const left = Math.floor((FRAME_WIDTH_PX - symbolPx) / 2);
  const top = Math.floor((FRAME_HEIGHT_PX - symbolPx) / 2);
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (!modules.get(row, col)) continue;
      for (let y = 0; y < modulePx; y += 1) {
        const start = (top + row * modulePx + y) * FRAME_WIDTH_PX + left + col * modulePx;
        luma.fill(DARK_LUMA, start, start + modulePx);
      }
    }
  }
  return file;
}

/** One worker's fake camera file. */
export interface FakeCamera {
  /** Absolute path to pass to `--use-file-for-fake-video-capture`. */
  readonly path: string;
  /** Shows a QR code of `text` from now on (rewrites the file in place). */
  showCode(text: string): void;
  /** Shows the picture of the PNG file `png` from now on (e.g. an exported ticket's QR code). @throws Error when it is not a PNG. */
  showImage(png: Buffer): void;
  /** Shows a blank white frame (nothing to decode). */
  showBlank(): void;
}

/**
 * Creates (or truncates) the Y4M file at `path`, showing a blank frame. Later frames are written
 * without truncation from offset 0 at the same length, so the inode and size never change.
 */
export function createFakeCamera(path: string): FakeCamera {
  const writeFrame = (frame: Buffer, flags: 'w' | 'r+') => {
    const fd = openSync(path, flags);
    try {
      writeSync(fd, frame, 0, frame.length, 0);
    } finally {
      closeSync(fd);
    }
  };
  writeFrame(renderFrame(null), 'w');
  return {
    path,
    showCode: (text) => writeFrame(renderFrame(text), 'r+'),
    showImage: (png) => writeFrame(renderImageFrame(png), 'r+'),
    showBlank: () => writeFrame(renderFrame(null), 'r+'),
  };
}
