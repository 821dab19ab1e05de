/** In a browser the camera source is the web one (the native path: camera-source.native.test.ts). */
import { expect, test } from 'vitest';
import type { ScanSource } from './scan-source.ts';
import { createCameraSource } from './camera-source.ts';

const webSource: ScanSource = {
  kind: 'web-camera',
  preview: 'video-element',
  start: async () => 'active',
  stop: async () => undefined,
  hasTorch: () => false,
  setTorch: async () => undefined,
};

test('off the native platform the web camera source is used', () => {
  expect(createCameraSource(() => webSource)).toBe(webSource);
});
