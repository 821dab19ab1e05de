/**
 * The camera scan source for this platform (SEAMS §1, issue 9 item 2): ML Kit behind the WebView
 * in the native app (never `getUserMedia` there), the browser camera everywhere else. Screens call
 * this and work with the `ScanSource` they get, not knowing which one runs.
 */
import { createNativeCameraSource } from '../native/native-camera-source.ts';
import { isNativePlatform } from '../native/platform.ts';
import type { ScanSource } from './scan-source.ts';

/**
 * @param createWebSource makes the browser camera source (`createWebCameraSource`); called only
 *   off the native platform.
 * @returns a new source: `kind` 'native-camera' on Android/iOS, else whatever `createWebSource` returns.
 */
export function createCameraSource(createWebSource: () => ScanSource): ScanSource {
  return isNativePlatform() ? createNativeCameraSource() : createWebSource();
}
