/**
 * The ML Kit scan source on Capacitor's real Android bridge path: the plugin's own JS and
 * `@capacitor/core` run unmodified; the stand-in plays the Java side (src/test/capacitor-stand-in.ts).
 */
import { beforeEach, expect, test } from 'vitest';
import { DEFAULT_STAND_IN_OPTIONS, flushBridge, installAndroidBridge } from '@/test/android-bridge.ts';

// Before any @capacitor module loads: the plugins register against the android bridge.
const standIn = installAndroidBridge();
const { createNativeCameraSource, openCameraSettings } = await import('./native-camera-source.ts');
const { isNativePlatform } = await import('./platform.ts');

const scanEvent = (...rawValues: (string | undefined)[]) => ({
  barcodes: rawValues.map((rawValue) => ({ rawValue, displayValue: rawValue ?? '', format: 'QR_CODE', valueType: 'TEXT' })),
});

const methodsCalled = () => standIn.calls.filter((call) => call.pluginId === 'BarcodeScanner').map((call) => call.methodName);

beforeEach(() => {
  standIn.calls.length = 0;
  Object.assign(standIn.options, DEFAULT_STAND_IN_OPTIONS);
});

test('with the Android bridge present the app is on the native platform', () => {
  expect(isNativePlatform()).toBe(true);
});

test('starts the rear camera for QR codes only and reports each barcode read, in order', async () => {
  const source = createNativeCameraSource();
  expect(source).toMatchObject({ kind: 'native-camera', preview: 'behind-webview' });
  const codes: string[] = [];
  await expect(source.start({ onCode: (code) => codes.push(code) })).resolves.toBe('active');

  const startScan = standIn.calls.find((call) => call.methodName === 'startScan');
  expect(startScan?.options).toEqual({ formats: ['QR_CODE'], lensFacing: 'BACK' });
  // Two listeners: the codes, and the camera failing while it runs (scanError).
  expect(methodsCalled()).toEqual(['checkPermissions', 'addListener', 'addListener', 'startScan', 'isTorchAvailable']);
  expect(standIn.calls.filter((call) => call.methodName === 'addListener').map((call) => call.options.eventName)).toEqual(['barcodesScanned', 'scanError']);

  // The plugin reports the same code on every frame it stays in view: the source passes each on.
  expect(standIn.emit('BarcodeScanner', 'barcodesScanned', scanEvent('TICKET-1'))).toBe(1);
  standIn.emit('BarcodeScanner', 'barcodesScanned', scanEvent('TICKET-1', undefined, 'TICKET-2'));
  expect(codes).toEqual(['TICKET-1', 'TICKET-1', 'TICKET-2']);
  await source.stop();
});

test('stop removes the listener and stops the camera; no code arrives afterwards', async () => {
  const source = createNativeCameraSource();
  const codes: string[] = [];
  await source.start({ onCode: (code) => codes.push(code) });
  await source.stop();
  await flushBridge();
  expect(methodsCalled()).toContain('stopScan');
  expect(methodsCalled()).toContain('removeListener');
  expect(standIn.listenerCount('BarcodeScanner', 'barcodesScanned')).toBe(0);
  standIn.emit('BarcodeScanner', 'barcodesScanned', scanEvent('LATE'));
  expect(codes).toEqual([]);
  // Stopping twice is fine.
  await expect(source.stop()).resolves.toBeUndefined();
});

test("a camera failing while it runs (scanError) is reported once, released, and reads no more codes", async () => {
  const source = createNativeCameraSource();
  const codes: string[] = [];
  let errors = 0;
  await source.start({ onCode: (code) => codes.push(code), onError: () => (errors += 1) });
  expect(standIn.emit('BarcodeScanner', 'scanError', { message: 'Camera disconnected.' })).toBe(1);
  expect(errors).toBe(1);
  await flushBridge();
  expect(methodsCalled()).toContain('stopScan');
  expect(standIn.listenerCount('BarcodeScanner', 'barcodesScanned')).toBe(0);
  expect(standIn.listenerCount('BarcodeScanner', 'scanError')).toBe(0);
  standIn.emit('BarcodeScanner', 'barcodesScanned', scanEvent('AFTER'));
  expect(codes).toEqual([]);
  expect(source.hasTorch()).toBe(false);

  // A stopped source hears no scanError of a later camera session it does not own.
  await expect(source.start({ onCode: () => undefined, onError: () => (errors += 1) })).resolves.toBe('active');
  await source.stop();
  await flushBridge();
  expect(standIn.emit('BarcodeScanner', 'scanError', { message: 'late' })).toBe(0);
  expect(errors).toBe(1);
});

test('asks for the camera when the OS has not decided, and starts when granted', async () => {
  standIn.options.camera = 'prompt';
  const source = createNativeCameraSource();
  await expect(source.start({ onCode: () => undefined })).resolves.toBe('active');
  expect(methodsCalled().slice(0, 2)).toEqual(['checkPermissions', 'requestPermissions']);
  await source.stop();
});

test('a refused permission (now or earlier) ends the start with denied and never opens the camera', async () => {
  standIn.options.camera = 'prompt';
  standIn.options.cameraOnRequest = 'denied';
  const source = createNativeCameraSource();
  await expect(source.start({ onCode: () => undefined })).resolves.toBe('denied');
  standIn.options.camera = 'denied';
  await expect(source.start({ onCode: () => undefined })).resolves.toBe('denied');
  expect(methodsCalled()).not.toContain('startScan');
  expect(methodsCalled().filter((name) => name === 'requestPermissions')).toHaveLength(1);
});

test('a camera that fails to start ends the start with failed and leaves no listener behind', async () => {
  standIn.options.startScanFails = true;
  const source = createNativeCameraSource();
  await expect(source.start({ onCode: () => undefined })).resolves.toBe('failed');
  await flushBridge();
  expect(standIn.listenerCount('BarcodeScanner', 'barcodesScanned')).toBe(0);
});

test('a stop during the start cancels it', async () => {
  const source = createNativeCameraSource();
  const start = source.start({ onCode: () => undefined });
  await source.stop();
  await expect(start).resolves.toBe('cancelled');
  await flushBridge();
  expect(standIn.listenerCount('BarcodeScanner', 'barcodesScanned')).toBe(0);
});

test('the torch follows the device: available → on and off; missing → hasTorch false and setTorch rejects', async () => {
  const source = createNativeCameraSource();
  expect(source.hasTorch()).toBe(false);
  await source.start({ onCode: () => undefined });
  expect(source.hasTorch()).toBe(true);
  await source.setTorch(true);
  await source.setTorch(false);
  expect(methodsCalled()).toEqual(expect.arrayContaining(['enableTorch', 'disableTorch']));
  await source.stop();
  expect(source.hasTorch()).toBe(false);

  standIn.options.torch = false;
  await source.start({ onCode: () => undefined });
  expect(source.hasTorch()).toBe(false);
  await expect(source.setTorch(true)).rejects.toThrow('no torch');
  await source.stop();
});

test('openCameraSettings asks the plugin to open the app settings', async () => {
  await openCameraSettings();
  expect(methodsCalled()).toEqual(['openSettings']);
});
