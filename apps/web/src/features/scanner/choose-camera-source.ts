/**
 * The one place the scanner screen gets its camera from (SEAMS §1): the native app's ML Kit camera
 * on Android/iOS (issue 9), else the browser camera (zxing-wasm over getUserMedia);
 * `lib/scan-source/camera-source.ts` chooses by platform.
 */
import type { QrDecoderFactory } from './qr-decoder-context.tsx';
import { createCameraSource } from '@/lib/scan-source/camera-source.ts';
import type { ScanSource } from '@/lib/scan-source/scan-source.ts';
import { countCameras, createWebCameraSource } from '@/lib/scan-source/web-camera-source.ts';

/** The camera `ScanSource` for this device; `createDecoder` is called on its first start only. */
export function chooseCameraSource(createDecoder: QrDecoderFactory): ScanSource {
  return createCameraSource(() => createWebCameraSource(createDecoder));
}

/** How many cameras this device has (0 when unknown); 'Switch camera' shows from 2 (issue 10 item 6). */
export function countDeviceCameras(): Promise<number> {
  return countCameras();
}
