/** On the native platform (Capacitor's Android bridge) the camera source is ML Kit, never the web one. */
import { expect, test, vi } from 'vitest';
import { installAndroidBridge } from '@/test/android-bridge.ts';

installAndroidBridge();
const { createCameraSource } = await import('./camera-source.ts');

test('on the native platform the ML Kit source is used and the web factory is never called', () => {
  const createWebSource = vi.fn();
  const source = createCameraSource(createWebSource);
  expect(source).toMatchObject({ kind: 'native-camera', preview: 'behind-webview' });
  expect(createWebSource).not.toHaveBeenCalled();
});
