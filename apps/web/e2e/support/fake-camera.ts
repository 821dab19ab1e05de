/**
 * A fake camera for Chromium's `--use-file-for-fake-video-capture`: a one-frame Y4M video
 * (640x480 px, 4:2:0, 30 fps; Chromium loops it) that shows a QR code, or a blank white frame.
 *
 * Chromium keeps the file open while a stream runs, so `showCode` rewrites the same file in place
 * (same inode, same size): an open stream sees the new picture, whereas renaming a new file over it
 * would not be seen (see TESTING-NOTES.md in the shared folder beside the repo).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
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

/** The whole Y4M file (header + one I420 frame) for `text`, or a blank white frame when `text` is null. */
function renderFrame(text: string | null): Buffer {
  const lumaSize = FRAME_WIDTH_PX * FRAME_HEIGHT_PX;
  const chromaSize = lumaSize / 4;
  const header = Buffer.from(HEADER, 'ascii');
  const file = Buffer.alloc(header.length + lumaSize + 2 * chromaSize, LIGHT_LUMA);
  header.copy(file, 0);
  const luma = file.subarray(header.length, header.length + lumaSize);
  file.fill(NEUTRAL_CHROMA, header.length + lumaSize);
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
  /** Shows a blank white frame (nothing to decode). */
  showBlank(): void;
}

/**
 * Creates (or truncates) the Y4M file at `path`, showing a blank frame. Later frames are written
 * without truncation from offset 0 at the same length, so the inode and size never change.
 */
export function createFakeCamera(path: string): FakeCamera {
  const writeFrame = (text: string | null, flags: 'w' | 'r+') => {
    const frame = renderFrame(text);
    const fd = openSync(path, flags);
    try {
      writeSync(fd, frame, 0, frame.length, 0);
    } finally {
      closeSync(fd);
    }
  };
  writeFrame(null, 'w');
  return {
    path,
    showCode: (text) => writeFrame(text, 'r+'),
    showBlank: () => writeFrame(null, 'r+'),
  };
}
