import { expect, test } from 'vitest';
import * as constants from './constants.ts';

test('the SPEC §9 business constants have the specified values', () => {
  expect(constants.CAMERA_SCANS_PER_SECOND).toBe(2);
  expect(constants.PREFER_REAR_CAMERA).toBe(true);
  expect(constants.CAMERA_FACING_MODE).toBe('environment');
  expect(constants.DECODE_PAUSE_MS).toBe(500);
  expect(constants.SWIPE_EDGE_PX).toBe(50);
  expect(constants.SWIPE_MIN_DX_PX).toBe(100);
  expect(constants.SWIPE_MAX_DY_PX).toBe(100);
  expect(constants.TOAST_CODE_MAX_CHARS).toBe(30);
  expect(constants.RESULT_CODE_MAX_CHARS).toBe(20);
  expect(constants.SCAN_LIBRARY_MAX_SCANS_PER_SECOND).toBe(25);
  expect(constants.SCAN_LIBRARY_DECODE_TIMEOUT_MS).toBe(10_000);
  expect(constants.SCAN_CANVAS_SIZE_PX).toBe(400);
  expect(constants.QUERY_GC_TIME_MS).toBe(5 * 60 * 1000);
  expect(constants.QUERY_RETRIES).toBe(3);
  expect(constants.RETRY_DELAY_CAP_MS).toBe(30_000);
  expect(constants.TOOLTIP_DELAY_MS).toBe(700);
});

test('the login title is the product scanner name', () => {
  expect(constants.SCANNER_NAME).toBe('Gatecheck Scanner');
});
