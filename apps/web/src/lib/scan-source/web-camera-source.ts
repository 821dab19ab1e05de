/**
 * The browser camera as a `ScanSource` (SEAMS §1; SPEC §4, §9): opens the camera with getUserMedia
 * (rear camera preferred, never `exact`), shows it in the `<video>` passed to `start`, draws a frame
 * onto a canvas of at most 400 px twice per second and hands it to a `QrDecoder`, giving up a decode
 * after 10 s. Every decoded text is reported, frame after frame: whether the first code stops the
 * camera (SPEC §4) or scanning goes on (continuous mode) is the scanner screen's choice.
 */
import {
  CAMERA_FACING_MODE,
  CAMERA_SCANS_PER_SECOND,
  SCAN_CANVAS_SIZE_PX,
  SCAN_LIBRARY_DECODE_TIMEOUT_MS,
  SCAN_LIBRARY_MAX_SCANS_PER_SECOND,
} from '@/config/constants.ts';
import type { QrDecoder } from '@/lib/qr/qr-decoder.ts';
import type { ScanSource, ScanSourceStart, ScanSourceStartOptions } from './scan-source.ts';

/** Milliseconds between two decode attempts: 2 per second, never above the 25 per second cap (SPEC §9). */
export const SCAN_INTERVAL_MS = 1000 / Math.min(CAMERA_SCANS_PER_SECOND, SCAN_LIBRARY_MAX_SCANS_PER_SECOND);

/** The torch is not in TypeScript's DOM types yet (Chromium on Android reports it). */
interface TorchCapabilities extends MediaTrackCapabilities {
  torch?: boolean;
}

interface Session {
  stream: MediaStream | null;
  video: HTMLVideoElement | null;
  timer: ReturnType<typeof setInterval> | null;
  hasTorch: boolean;
  isStopped: boolean;
}

/**
 * The decoded text, or null when the decode takes longer than 10 s (SPEC §9): a stuck decode must
 * not stop the scanner from trying the next frames.
 */
function decodeWithTimeout(decoder: QrDecoder, frame: ImageData): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), SCAN_LIBRARY_DECODE_TIMEOUT_MS);
  });
  return Promise.race([decoder.decode(frame), timeout]).finally(() => clearTimeout(timer));
}

/**
 * The current video frame scaled so its longer side is at most 400 px (SPEC §9), as RGBA pixels;
 * null while the video has no frame yet.
 */
function grabFrame(video: HTMLVideoElement, canvas: HTMLCanvasElement): ImageData | null {
  const { videoWidth, videoHeight } = video;
  if (videoWidth === 0 || videoHeight === 0) return null;
  const scale = Math.min(1, SCAN_CANVAS_SIZE_PX / Math.max(videoWidth, videoHeight));
  const width = Math.round(videoWidth * scale);
  const height = Math.round(videoHeight * scale);
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(video, 0, 0, width, height);
  return context.getImageData(0, 0, width, height);
}

function releaseStream(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Whether the stream's video track can switch a torch on (MediaStreamTrack torch capability). */
function trackHasTorch(stream: MediaStream): boolean {
  const track = stream.getVideoTracks?.()[0];
  const capabilities = track?.getCapabilities?.() as TorchCapabilities | undefined;
  return capabilities?.torch === true;
}

/**
 * How many cameras the browser lists (`enumerateDevices` 'videoinput' entries); 0 when it cannot
 * tell. Decides whether 'Switch camera' is offered (issue 10 item 6). Never rejects.
 */
export async function countCameras(): Promise<number> {
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices.filter((device) => device.kind === 'videoinput').length;
  } catch {
    return 0;
  }
}

/**
 * A web camera source.
 * @param createDecoder creates the QR decoder; called on the first `start` only (the decoder is
 *   reused for every later start), and again after a start whose decoder failed to load.
 * @returns a `ScanSource` of kind 'web-camera' with preview 'video-element': `start` needs the
 *   `video` option (without it, it resolves 'failed'). `start` resolves 'denied' when the user or the
 *   browser refused the camera (NotAllowedError), 'failed' for every other failure (no camera, no
 *   `navigator.mediaDevices` on a plain-http page, decoder not loadable), 'cancelled' when `stop`
 *   came first. `setTorch` rejects with an Error when the camera has no torch.
 */
export function createWebCameraSource(createDecoder: () => Promise<QrDecoder>): ScanSource {
  let decoderPromise: Promise<QrDecoder> | null = null;
  let session: Session | null = null;
  let canvas: HTMLCanvasElement | null = null;

  const stopSession = () => {
    const current = session;
    if (!current) return;
    session = null;
    current.isStopped = true;
    if (current.timer !== null) clearInterval(current.timer);
    releaseStream(current.stream);
    if (current.video) {
      current.video.pause();
      current.video.srcObject = null;
    }
  };

  const getDecoder = () => {
    if (!decoderPromise) {
      const created = createDecoder();
      decoderPromise = created;
      // A decoder that failed to load is created afresh on the next start.
      created.catch(() => {
        if (decoderPromise === created) decoderPromise = null;
      });
    }
    return decoderPromise;
  };

  const start = async ({ onCode, video = null, facing = CAMERA_FACING_MODE }: ScanSourceStartOptions): Promise<ScanSourceStart> => {
    stopSession();
    const current: Session = { stream: null, video, timer: null, hasTorch: false, isStopped: false };
    session = current;
    const decoding = getDecoder();
    let decoder: QrDecoder;
    try {
      if (!video) throw new Error('The camera preview is not mounted.');
      // `exact` would fail on devices that report no facing mode (desktop webcams, test cameras; SPEC §9).
      current.stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: facing }, audio: false });
      if (current.isStopped) {
        releaseStream(current.stream);
        return 'cancelled';
      }
      video.srcObject = current.stream;
      await video.play();
      decoder = await decoding;
    } catch (error) {
      if (current.isStopped) return 'cancelled';
      stopSession();
      return error instanceof DOMException && error.name === 'NotAllowedError' ? 'denied' : 'failed';
    }
    if (current.isStopped) return 'cancelled';
    current.hasTorch = trackHasTorch(current.stream);

    const frameCanvas = (canvas ??= document.createElement('canvas'));
    let isDecoding = false;
    const scanFrame = async () => {
      if (isDecoding || current.isStopped) return;
      const frame = grabFrame(video, frameCanvas);
      if (!frame) return;
      isDecoding = true;
      try {
        const code = await decodeWithTimeout(decoder, frame);
        if (code && !current.isStopped) onCode(code);
      } catch {
        // An undecodable frame is skipped; the next one comes in half a second.
      } finally {
        isDecoding = false;
      }
    };
    current.timer = setInterval(() => void scanFrame(), SCAN_INTERVAL_MS);
    return 'active';
  };

  return {
    kind: 'web-camera',
    preview: 'video-element',
    start,
    stop: async () => stopSession(),
    hasTorch: () => session?.hasTorch === true,
    setTorch: async (on) => {
      const track = session?.hasTorch ? session.stream?.getVideoTracks()[0] : undefined;
      if (!track) throw new Error('This camera has no torch.');
      await track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
    },
  };
}
