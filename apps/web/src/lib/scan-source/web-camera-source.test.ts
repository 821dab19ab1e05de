/**
 * The web camera source against the browser APIs jsdom lacks — getUserMedia, the `<video>` element's
 * size and playback, the canvas — stubbed at the browser-global level only. The real camera and
 * decoder run in the Playwright suite (e2e/scanner-continuous.spec.ts).
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { QrDecoder } from '@/lib/qr/qr-decoder.ts';
import { countCameras, createWebCameraSource, SCAN_INTERVAL_MS } from './web-camera-source.ts';

interface FakeCamera {
  getUserMedia: ReturnType<typeof vi.fn>;
  stopTrack: ReturnType<typeof vi.fn>;
  applyConstraints: ReturnType<typeof vi.fn>;
  /** [width, height] of every frame handed to the decoder, in px. */
  frameSizes: Array<[number, number]>;
}

function installFakeCamera(options: { videoSize?: [number, number]; failWith?: Error; torch?: boolean } = {}): FakeCamera {
  const [videoWidth, videoHeight] = options.videoSize ?? [640, 480];
  const stopTrack = vi.fn();
  const applyConstraints = vi.fn(async () => undefined);
  const track = { stop: stopTrack, applyConstraints, getCapabilities: () => (options.torch ? { torch: true } : {}) };
  const stream = { getTracks: () => [track], getVideoTracks: () => [track] };
  const getUserMedia = vi.fn(() => (options.failWith ? Promise.reject(options.failWith) : Promise.resolve(stream)));
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  vi.spyOn(HTMLVideoElement.prototype, 'videoWidth', 'get').mockReturnValue(videoWidth);
  vi.spyOn(HTMLVideoElement.prototype, 'videoHeight', 'get').mockReturnValue(videoHeight);
  const frameSizes: Array<[number, number]> = [];
  const context = {
    drawImage: () => undefined,
    getImageData: (_x: number, _y: number, width: number, height: number) => {
      frameSizes.push([width, height]);
      return { data: new Uint8ClampedArray(width * height * 4), width, height, colorSpace: 'srgb' };
    },
  };
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => context) as unknown as HTMLCanvasElement['getContext']);
  return { getUserMedia, stopTrack, applyConstraints, frameSizes };
}

/** A decoder that answers the given texts in turn (null = no code in this frame), then null. */
function scriptedDecoder(answers: Array<string | null>) {
  return vi.fn(async (): Promise<QrDecoder> => ({ decode: async () => answers.shift() ?? null }));
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

test('it opens the rear camera (never exact), shows it in the video, and decodes 2 frames per second on a canvas of at most 400 px (SPEC §9)', async () => {
  const camera = installFakeCamera({ videoSize: [1280, 720] });
  const video = document.createElement('video');
  const source = createWebCameraSource(scriptedDecoder([]));
  expect(source.kind).toBe('web-camera');
  expect(source.preview).toBe('video-element');
  expect(await source.start({ onCode: () => undefined, video })).toBe('active');
  expect(camera.getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });
  expect(video.srcObject).not.toBeNull();
  expect(SCAN_INTERVAL_MS).toBe(500);
  await advance(499);
  expect(camera.frameSizes).toHaveLength(0);
  await advance(1);
  expect(camera.frameSizes).toEqual([[400, 225]]);
  await advance(500);
  expect(camera.frameSizes).toHaveLength(2);
  await source.stop();
});

test('every decoded text is reported, frame after frame; the source never stops itself', async () => {
  const camera = installFakeCamera();
  const codes: string[] = [];
  const source = createWebCameraSource(scriptedDecoder([null, 'GC-1', 'GC-1', 'GC-2']));
  await source.start({ onCode: (code) => codes.push(code), video: document.createElement('video') });
  await advance(2_000);
  expect(codes).toEqual(['GC-1', 'GC-1', 'GC-2']);
  expect(camera.stopTrack).not.toHaveBeenCalled();
  await source.stop();
  expect(camera.stopTrack).toHaveBeenCalledTimes(1);
});

test('the user-facing camera is opened when asked for', async () => {
  const camera = installFakeCamera();
  const source = createWebCameraSource(scriptedDecoder([]));
  await source.start({ onCode: () => undefined, video: document.createElement('video'), facing: 'user' });
  expect(camera.getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'user' }, audio: false });
  await source.stop();
});

test('a decode that takes longer than 10 s is given up and the next frames are decoded (SPEC §9)', async () => {
  const camera = installFakeCamera();
  let decodes = 0;
  const createDecoder = async (): Promise<QrDecoder> => ({
    decode: () => {
      decodes++;
      // The first decode never finishes; the next one finds the code.
      return decodes === 1 ? new Promise<string | null>(() => undefined) : Promise.resolve('GC-AFTER-TIMEOUT');
    },
  });
  const codes: string[] = [];
  const source = createWebCameraSource(createDecoder);
  await source.start({ onCode: (code) => codes.push(code), video: document.createElement('video') });
  await advance(500);
  expect(decodes).toBe(1);
  // While the stuck decode runs, no other frame is decoded.
  await advance(9_499);
  expect(decodes).toBe(1);
  await advance(1_001);
  expect(decodes).toBe(2);
  expect(codes).toEqual(['GC-AFTER-TIMEOUT']);
  expect(camera.stopTrack).not.toHaveBeenCalled();
  await source.stop();
});

test('the decoder is created once and reused when the camera is started again', async () => {
  installFakeCamera();
  const createDecoder = scriptedDecoder(['GC-1', 'GC-2']);
  const codes: string[] = [];
  const source = createWebCameraSource(createDecoder);
  const video = document.createElement('video');
  await source.start({ onCode: (code) => codes.push(code), video });
  await advance(500);
  await source.stop();
  await source.start({ onCode: (code) => codes.push(code), video });
  await advance(500);
  expect(codes).toEqual(['GC-1', 'GC-2']);
  expect(createDecoder).toHaveBeenCalledTimes(1);
  await source.stop();
});

test('after stop the camera is released, the video emptied, and nothing more is reported', async () => {
  const camera = installFakeCamera();
  const codes: string[] = [];
  const source = createWebCameraSource(scriptedDecoder(['GC-1', 'GC-2', 'GC-3']));
  const video = document.createElement('video');
  await source.start({ onCode: (code) => codes.push(code), video });
  await advance(500);
  await source.stop();
  await source.stop();
  await advance(5_000);
  expect(codes).toEqual(['GC-1']);
  expect(camera.stopTrack).toHaveBeenCalledTimes(1);
  expect(video.srcObject).toBeNull();
});

test('a stop while the camera is opening resolves start as cancelled and releases the camera', async () => {
  const camera = installFakeCamera();
  const source = createWebCameraSource(scriptedDecoder([]));
  const starting = source.start({ onCode: () => undefined, video: document.createElement('video') });
  await source.stop();
  expect(await starting).toBe('cancelled');
  expect(camera.stopTrack).toHaveBeenCalledTimes(1);
});

test('a refused camera is denied; a missing camera, a missing preview or no camera API at all (plain http) failed', async () => {
  installFakeCamera({ failWith: new DOMException('Permission denied', 'NotAllowedError') });
  const video = document.createElement('video');
  expect(await createWebCameraSource(scriptedDecoder([])).start({ onCode: () => undefined, video })).toBe('denied');
  installFakeCamera({ failWith: new DOMException('Requested device not found', 'NotFoundError') });
  expect(await createWebCameraSource(scriptedDecoder([])).start({ onCode: () => undefined, video })).toBe('failed');
  installFakeCamera();
  expect(await createWebCameraSource(scriptedDecoder([])).start({ onCode: () => undefined })).toBe('failed');
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: undefined });
  expect(await createWebCameraSource(scriptedDecoder([])).start({ onCode: () => undefined, video })).toBe('failed');
});

test('a decoder that fails to load fails the start and is created afresh on the next one', async () => {
  const camera = installFakeCamera();
  const createDecoder = vi.fn<() => Promise<QrDecoder>>().mockRejectedValueOnce(new Error('wasm')).mockResolvedValue({ decode: async () => null });
  const source = createWebCameraSource(createDecoder);
  const video = document.createElement('video');
  expect(await source.start({ onCode: () => undefined, video })).toBe('failed');
  expect(camera.stopTrack).toHaveBeenCalledTimes(1);
  expect(await source.start({ onCode: () => undefined, video })).toBe('active');
  expect(createDecoder).toHaveBeenCalledTimes(2);
  await source.stop();
});

test('the torch is offered only when the running camera reports it, and is switched with applyConstraints', async () => {
  const camera = installFakeCamera({ torch: true });
  const source = createWebCameraSource(scriptedDecoder([]));
  expect(source.hasTorch()).toBe(false);
  await source.start({ onCode: () => undefined, video: document.createElement('video') });
  expect(source.hasTorch()).toBe(true);
  await source.setTorch(true);
  await source.setTorch(false);
  expect(camera.applyConstraints.mock.calls).toEqual([[{ advanced: [{ torch: true }] }], [{ advanced: [{ torch: false }] }]]);
  await source.stop();
  expect(source.hasTorch()).toBe(false);

  installFakeCamera({ torch: false });
  const plain = createWebCameraSource(scriptedDecoder([]));
  await plain.start({ onCode: () => undefined, video: document.createElement('video') });
  expect(plain.hasTorch()).toBe(false);
  await expect(plain.setTorch(true)).rejects.toThrow('no torch');
  await plain.stop();
});

test('countCameras counts the video inputs the browser lists, and is 0 when it cannot tell', async () => {
  const enumerateDevices = vi.fn(async () => [{ kind: 'videoinput' }, { kind: 'audioinput' }, { kind: 'videoinput' }]);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { enumerateDevices } });
  expect(await countCameras()).toBe(2);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: undefined });
  expect(await countCameras()).toBe(0);
});
