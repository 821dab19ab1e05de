/**
 * The camera half of the scanner (SPEC §4, §9): opens the rear camera, shows it in a `<video>`,
 * draws a frame onto a canvas of at most 400 px twice per second, and hands each frame to the
 * `QrDecoder`. The first decoded text stops the camera and is reported once.
 *
 * On the native app (issue 9) the camera is ML Kit's (`createNativeCameraSource`, a `ScanSource`
 * whose preview renders behind the WebView), never `getUserMedia`: the same rule applies, the first
 * code the plugin reports stops it and is reported once, later frames of it are dropped.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import {
  CAMERA_FACING_MODE,
  CAMERA_SCANS_PER_SECOND,
  SCAN_CANVAS_SIZE_PX,
  SCAN_LIBRARY_DECODE_TIMEOUT_MS,
  SCAN_LIBRARY_MAX_SCANS_PER_SECOND,
} from '@/config/constants.ts';
import { createNativeCameraSource } from '@/lib/native/native-camera-source.ts';
import { isNativePlatform } from '@/lib/native/platform.ts';
import type { QrDecoder } from '@/lib/qr/qr-decoder.ts';
import type { ScanSource } from '@/lib/scan-source/scan-source.ts';
import { useQrDecoderFactory } from './qr-decoder-context.tsx';

export interface CameraScanner {
  /** Attach to the preview `<video>` element. */
  videoRef: RefObject<HTMLVideoElement | null>;
  /**
   * Opens the camera and starts decoding. Resolves to 'active' once frames are being decoded,
   * 'failed' when the camera (or the decoder) cannot be opened, 'denied' when camera permission was
   * refused (native), 'cancelled' when `stop` came first.
   */
  start(): Promise<'active' | 'failed' | 'denied' | 'cancelled'>;
  /** Where the preview shows: in `videoRef` ('video-element') or behind the WebView (native). */
  preview: 'video-element' | 'behind-webview';
  /** Stops decoding and releases the camera. Safe to call at any time. */
  stop(): void;
}

interface Session {
  /** The native source while it runs (native app only). */
  native: ScanSource | null;
  stream: MediaStream | null;
  timer: ReturnType<typeof setInterval> | null;
  isStopped: boolean;
}

/** Milliseconds between two decode attempts: 2 per second, never above the 25 per second cap (SPEC §9). */
const SCAN_INTERVAL_MS = 1000 / Math.min(CAMERA_SCANS_PER_SECOND, SCAN_LIBRARY_MAX_SCANS_PER_SECOND);

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

/**
 * @param onCode called once with the decoded text, after the camera has been stopped.
 */
export function useCameraScanner(onCode: (code: string) => void): CameraScanner {
  const createDecoder = useQrDecoderFactory();
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  // One decoder per screen, reused for every frame and every camera start.
  const decoderRef = useRef<Promise<QrDecoder> | null>(null);
  const sessionRef = useRef<Session | null>(null);
  // Native app: the ML Kit source, made once per screen.
  const [nativeSource] = useState(() => (isNativePlatform() ? createNativeCameraSource() : null));
  const onCodeRef = useRef(onCode);
  useEffect(() => {
    onCodeRef.current = onCode;
  }, [onCode]);

  const stop = useCallback(() => {
    const session = sessionRef.current;
    if (!session) return;
    sessionRef.current = null;
    session.isStopped = true;
    if (session.timer !== null) clearInterval(session.timer);
    void session.native?.stop();
    releaseStream(session.stream);
    const video = videoRef.current;
    if (video) {
      video.pause();
      video.srcObject = null;
    }
  }, []);

  const start = useCallback(async (): Promise<'active' | 'failed' | 'denied' | 'cancelled'> => {
    stop();
    const session: Session = { native: nativeSource, stream: null, timer: null, isStopped: false };
    sessionRef.current = session;
    if (nativeSource) {
      const outcome = await nativeSource.start({
        onCode: (code) => {
          // The first code stops the camera; the frames after it (same code or not) are dropped.
          if (session.isStopped) return;
          stop();
          onCodeRef.current(code);
        },
      });
      if (session.isStopped) return 'cancelled';
      if (outcome !== 'active') stop();
      return outcome;
    }
    if (!decoderRef.current) {
      const created = createDecoder();
      decoderRef.current = created;
      // A decoder that failed to load is created afresh on the next start.
      created.catch(() => {
        if (decoderRef.current === created) decoderRef.current = null;
      });
    }
    const decoderPromise = decoderRef.current;
    let decoder: QrDecoder;
    try {
      // `exact` would fail on devices that report no facing mode (desktop webcams, test cameras).
      session.stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: CAMERA_FACING_MODE }, audio: false });
      if (session.isStopped) {
        releaseStream(session.stream);
        return 'cancelled';
      }
      const video = videoRef.current;
      if (!video) throw new Error('The camera preview is not mounted.');
      video.srcObject = session.stream;
      await video.play();
      decoder = await decoderPromise;
    } catch {
      if (session.isStopped) return 'cancelled';
      stop();
      return 'failed';
    }
    if (session.isStopped) return 'cancelled';

    const canvas = (canvasRef.current ??= document.createElement('canvas'));
    let isDecoding = false;
    const scanFrame = async () => {
      const video = videoRef.current;
      if (isDecoding || session.isStopped || !video) return;
      const frame = grabFrame(video, canvas);
      if (!frame) return;
      isDecoding = true;
      try {
        const code = await decodeWithTimeout(decoder, frame);
        if (code && !session.isStopped) {
          stop();
          onCodeRef.current(code);
        }
      } catch {
        // An undecodable frame is skipped; the next one comes in half a second.
      } finally {
        isDecoding = false;
      }
    };
    session.timer = setInterval(() => void scanFrame(), SCAN_INTERVAL_MS);
    return 'active';
  }, [createDecoder, nativeSource, stop]);

  // Release the camera when the screen goes away (SPEC: never leave the camera on).
  useEffect(() => stop, [stop]);

  return { videoRef, start, stop, preview: nativeSource ? 'behind-webview' : 'video-element' };
}
