/**
 * The offline outbox in web tests: scans as the scanner queues them (`offlineScan`) and the upload
 * endpoint (`serveUpload`, MSW, bodies parsed by the contract), for the tests of the screens that
 * send the outbox.
 */
import { apiPaths, OfflineScan, OfflineScanBatch, type OfflineScanBatchResponse } from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import type { NewOutboxItem } from '@/features/scanner/offline/outbox.ts';
import { testDay, testEvent, testUser } from './fixtures.ts';
import { apiUrl, server } from './msw-server.ts';

/** A colleague who scanned on the same device (a UUID, as the server's user ids are). */
export const COLLEAGUE_ID = '6f1c2d3e-4b5a-4c6d-8e7f-000000000002';

/** Scan number `n` (code `GOOD-<n>`, scanned at 10:<n> UTC on 11 July 2026) of `testUser` for `testEvent`'s `testDay`, approved. */
export function offlineScan(n: number, overrides: Partial<NewOutboxItem> = {}): NewOutboxItem {
  return {
    scanId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    eventId: testEvent.id,
    day: testDay.day,
    userId: testUser.id,
    code: `GOOD-${n}`,
    scannedAt: new Date(Date.UTC(2026, 6, 11, 10, n)).toISOString(),
    deviceId: 'device-1',
    verdict: 'approved',
    ...overrides,
  };
}

/**
 * The upload endpoint: while `isUp()` is false it answers with a network error; every batch that
 * arrives is recorded (`batches`, in arrival order) and answered `recorded` item by item.
 * `onBatch` runs as each batch arrives (before it is answered).
 */
export function serveUpload(isUp: () => boolean = () => true, onBatch: () => void = () => undefined) {
  const batches: OfflineScan[][] = [];
  let attempts = 0;
  server.use(
    http.post(apiUrl(apiPaths.offlineScans), async ({ request }) => {
      attempts += 1;
      if (!isUp()) return HttpResponse.error();
      const scans = OfflineScanBatch.parse(await request.json()).scans.map((scan) => OfflineScan.parse(scan));
      batches.push(scans);
      onBatch();
      return HttpResponse.json<OfflineScanBatchResponse>({ receivedAt: new Date().toISOString(), results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'recorded' })) });
    }),
  );
  return { batches, attempts: () => attempts };
}
