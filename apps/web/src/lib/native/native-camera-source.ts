/**
 * The native camera as a scan source (SEAMS §1, issue 9 item 2): Google ML Kit through
 * `@capacitor-mlkit/barcode-scanning`, rear camera, QR codes only. The camera renders behind the
 * WebView (`preview: 'behind-webview'`): the screen makes its ancestors transparent while it runs
 * (`useTransparentWebView`). The plugin reports every frame a code stays in view; this source passes
 * each barcode's `rawValue` on, and the caller decides what one scan is (SPEC §4).
 *
 * A camera that fails while it runs (the plugin's `scanError` event: another app took the camera, the
 * camera was lost) stops the source, which calls `onError` once, so the screen leaves 'scanning'
 * for SPEC §8's camera failure instead of showing a frozen preview (decision 091).
 *
 * Permissions (issue 9 item 3): `checkPermissions`, then `requestPermissions` when the answer is
 * 'prompt' (or 'prompt-with-rationale'); anything but 'granted'/'limited' ends `start` with 'denied',
 * and the screen shows SPEC §8's camera failure with a button to `openCameraSettings`.
 */
import { BarcodeFormat, BarcodeScanner, LensFacing, type BarcodesScannedEvent } from '@capacitor-mlkit/barcode-scanning';
import type { PluginListenerHandle } from '@capacitor/core';
import type { ScanSource, ScanSourceStart, ScanSourceStartOptions } from '../scan-source/scan-source.ts';

/** Whether the camera may be used after asking (asking only when the OS has not decided yet). */
async function ensureCameraPermission(): Promise<boolean> {
  const { camera } = await BarcodeScanner.checkPermissions();
  if (camera === 'granted' || camera === 'limited') return true;
  if (camera === 'denied') return false;
  const requested = await BarcodeScanner.requestPermissions();
  return requested.camera === 'granted' || requested.camera === 'limited';
}

/**
 * A new ML Kit scan source. One source drives one camera; `start` while active restarts it.
 * `start` never rejects: a plugin failure resolves 'failed', a refused permission 'denied', a `stop`
 * during the start 'cancelled'. `onCode` is never called after `stop()` has returned.
 */
export function createNativeCameraSource(): ScanSource {
  let listeners: PluginListenerHandle[] = [];
  let torchAvailable = false;
  // Bumped by every start and stop: a start that sees another generation was overtaken.
  let generation = 0;
  let isRunning = false;

  const release = async () => {
    const handles = listeners;
    listeners = [];
    torchAvailable = false;
    const wasRunning = isRunning;
    isRunning = false;
    await Promise.all(handles.map((handle) => handle.remove().catch(() => undefined)));
    if (wasRunning) await BarcodeScanner.stopScan().catch(() => undefined);
  };

  return {
    kind: 'native-camera',
    preview: 'behind-webview',

    async start({ onCode, onError }: ScanSourceStartOptions): Promise<ScanSourceStart> {
      const mine = ++generation;
      await release();
      try {
        if (!(await ensureCameraPermission())) return mine === generation ? 'denied' : 'cancelled';
        if (mine !== generation) return 'cancelled';
        const handle = await BarcodeScanner.addListener('barcodesScanned', (event: BarcodesScannedEvent) => {
          if (mine !== generation) return;
          for (const barcode of event.barcodes) {
            if (barcode.rawValue) onCode(barcode.rawValue);
            if (mine !== generation) return;
          }
        });
        const errorHandle = await BarcodeScanner.addListener('scanError', () => {
          if (mine !== generation) return;
          // The camera is gone: release it once and say so; a later start begins a new generation.
          generation += 1;
          void release();
          onError?.();
        });
        if (mine !== generation) {
          await Promise.all([handle.remove(), errorHandle.remove()].map((removal) => removal.catch(() => undefined)));
          return 'cancelled';
        }
        listeners = [handle, errorHandle];
        isRunning = true;
        await BarcodeScanner.startScan({ formats: [BarcodeFormat.QrCode], lensFacing: LensFacing.Back });
        if (mine !== generation) return 'cancelled';
        torchAvailable = await BarcodeScanner.isTorchAvailable()
          .then((result) => result.available)
          .catch(() => false);
        return mine === generation ? 'active' : 'cancelled';
      } catch {
        if (mine !== generation) return 'cancelled';
        await release();
        return 'failed';
      }
    },

    async stop(): Promise<void> {
      generation += 1;
      await release();
    },

    hasTorch: () => torchAvailable,

    async setTorch(on: boolean): Promise<void> {
      if (!torchAvailable) throw new Error('This camera has no torch.');
      await (on ? BarcodeScanner.enableTorch() : BarcodeScanner.disableTorch());
    },
  };
}

/**
 * Opens this app's page in the system settings, where a refused camera permission can be granted
 * (issue 9 item 3). Resolves once the request was handed to the OS; rejects when the plugin fails.
 */
export async function openCameraSettings(): Promise<void> {
  await BarcodeScanner.openSettings();
}
