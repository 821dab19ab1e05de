/**
 * The built app as the native app runs it (issue 9 tests): before any script of the page, the
 * stand-in of Capacitor's Java side (src/test/capacitor-stand-in.ts) and Capacitor's real
 * `native-bridge.js` (the script the Android shell injects) are installed with `page.addInitScript`,
 * so `@capacitor/core` reports the android platform and every plugin call crosses the bridge.
 * The stand-in's Preferences live in the page's localStorage under 'standin-prefs:', so a new page
 * of the same browser context is the app restarted on the same device.
 *
 * `getUserMedia` is wrapped to count calls: the native app must never use it.
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { installCapacitorStandIn, STAND_IN_PLUGINS, type CapacitorStandIn, type CapacitorStandInOptions, type StandInCall } from '../../src/test/capacitor-stand-in.ts';

export const NATIVE_PREFS_PREFIX = 'standin-prefs:';

const NATIVE_BRIDGE_PATH = createRequire(import.meta.url).resolve('@capacitor/android/capacitor/src/main/assets/native-bridge.js');

/** Makes every later load of `page` the native app on a device whose camera permission is `camera`. */
export async function installNativeShell(page: Page, camera: CapacitorStandInOptions['camera'] = 'prompt'): Promise<void> {
  const options: CapacitorStandInOptions = { camera, cameraOnRequest: 'granted', torch: false, startScanFails: false, preferencesFail: false, prefsPrefix: NATIVE_PREFS_PREFIX };
  await page.addInitScript(installCapacitorStandIn, { options, plugins: STAND_IN_PLUGINS });
  await page.addInitScript({ path: NATIVE_BRIDGE_PATH });
  await page.addInitScript(() => {
    const counter = window as unknown as { getUserMediaCalls: number };
    counter.getUserMediaCalls = 0;
    const media = navigator.mediaDevices;
    if (!media) return;
    const original = media.getUserMedia.bind(media);
    media.getUserMedia = (constraints) => {
      counter.getUserMediaCalls += 1;
      return original(constraints);
    };
  });
}

/** The plugin calls the page made so far, optionally of one plugin (and method). */
export function nativeCalls(page: Page, pluginId?: string, methodName?: string): Promise<StandInCall[]> {
  return page.evaluate(
    ([plugin, method]) =>
      (window as unknown as { capacitorStandIn: CapacitorStandIn }).capacitorStandIn.calls.filter(
        (call) => (plugin === undefined || call.pluginId === plugin) && (method === undefined || call.methodName === method),
      ),
    [pluginId, methodName] as const,
  );
}

/** How many listeners the page has for a plugin event. */
export function nativeListenerCount(page: Page, pluginId: string, eventName: string): Promise<number> {
  return page.evaluate(
    ([plugin, event]) => (window as unknown as { capacitorStandIn: CapacitorStandIn }).capacitorStandIn.listenerCount(plugin, event),
    [pluginId, eventName] as const,
  );
}

/** ML Kit sees `code` in `frames` consecutive camera frames (a `barcodesScanned` event each). */
export function nativeScan(page: Page, code: string, frames = 1): Promise<number> {
  return page.evaluate(
    ([text, count]) => {
      const standIn = (window as unknown as { capacitorStandIn: CapacitorStandIn }).capacitorStandIn;
      let delivered = 0;
      for (let frame = 0; frame < count; frame += 1) {
        delivered += standIn.emit('BarcodeScanner', 'barcodesScanned', { barcodes: [{ rawValue: text, displayValue: text, format: 'QR_CODE', valueType: 'TEXT' }] });
      }
      return delivered;
    },
    [code, frames] as const,
  );
}

/** What ML Kit's ready-made scanner (`scan`, the first screen's setup code) reads next: `code`. */
export function setNativeScanResult(page: Page, code: string): Promise<void> {
  return page.evaluate((text) => {
    (window as unknown as { capacitorStandIn: CapacitorStandIn }).capacitorStandIn.options.scanResult = text;
  }, code);
}

/** Changes the device's camera permission as the OS reports it. */
export function setNativeCameraPermission(page: Page, camera: CapacitorStandInOptions['camera'], onRequest: CapacitorStandInOptions['cameraOnRequest'] = 'denied'): Promise<void> {
  return page.evaluate(
    ([state, request]) => {
      const standIn = (window as unknown as { capacitorStandIn: CapacitorStandIn }).capacitorStandIn;
      standIn.options.camera = state;
      standIn.options.cameraOnRequest = request;
    },
    [camera, onRequest] as const,
  );
}

/** How often the page called getUserMedia. */
export function getUserMediaCalls(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { getUserMediaCalls: number }).getUserMediaCalls);
}

/** The device Preference `key` as the stand-in stores it, or null. */
export function nativePreference(page: Page, key: string): Promise<string | null> {
  return page.evaluate((storageKey) => localStorage.getItem(storageKey), `${NATIVE_PREFS_PREFIX}${key}`);
}
