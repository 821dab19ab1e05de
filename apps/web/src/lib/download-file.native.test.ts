/**
 * Saving an API answer as a file in the native app (docs/decisions/144), on Capacitor's real Android
 * bridge with the Java side played by the stand-in: /manage's QR PNG and all-tickets PDF reach the
 * Filesystem plugin byte for byte (a large one in parts) and then the share sheet; a refused
 * download saves nothing and throws the API error, as in a browser.
 */
import { standIn } from '@/test/android-bridge-install.ts';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test } from 'vitest';
import { DEFAULT_STAND_IN_OPTIONS, flushBridge } from '@/test/android-bridge.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { downloadApiFile } from './download-file.ts';
import { SHARE_PART_BYTES } from './native/share-file.ts';

const calls = (pluginId: string) => standIn().calls.filter((call) => call.pluginId === pluginId);

/** `length` bytes of every value 0–255, in an order that is not a repeat of the part size. */
function binaryBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let index = 0; index < length; index += 1) bytes[index] = (index * 7919 + (index >> 9)) % 256;
  return bytes;
}

beforeEach(() => {
  standIn().calls.length = 0;
  Object.assign(standIn().options, DEFAULT_STAND_IN_OPTIONS, { filesFail: false, shareOutcome: 'shared' });
});

test("a ticket's QR PNG and a large tickets PDF reach the phone's files byte for byte and then the share sheet", async () => {
  const png = binaryBytes(1_000);
  const pdf = binaryBytes(SHARE_PART_BYTES + 5);
  server.use(
    http.get(apiUrl('/manage/events/ev-1/tickets/t-1/qr.png'), () => HttpResponse.arrayBuffer(png.slice().buffer, { headers: { 'content-type': 'image/png' } })),
    http.get(apiUrl('/manage/events/ev-1/tickets.pdf'), () => HttpResponse.arrayBuffer(pdf.slice().buffer, { headers: { 'content-type': 'application/pdf' } })),
  );
  await downloadApiFile('/manage/events/ev-1/tickets/t-1/qr.png', 'GC-1.png');
  await downloadApiFile('/manage/events/ev-1/tickets.pdf', 'Harbour-Sound-tickets.pdf');
  await flushBridge();

  const writes = calls('Filesystem').map((call) => [call.methodName, call.options.path, call.options.directory]);
  expect(writes).toEqual([
    ['writeFile', 'exports/GC-1.png', 'CACHE'],
    ['writeFile', 'exports/Harbour-Sound-tickets.pdf', 'CACHE'],
    ['appendFile', 'exports/Harbour-Sound-tickets.pdf', 'CACHE'],
  ]);
  // What the plugin writes: each part's base64 decoded, in order (no `encoding`: bytes, not text).
  const bytesOf = (path: string) =>
    Buffer.concat(
      calls('Filesystem')
        .filter((call) => call.options.path === path)
        .map((call) => {
          expect(call.options.encoding).toBeUndefined();
          return Buffer.from(String(call.options.data), 'base64');
        }),
    );
  // Compared as hex: a deep equality of half a MB of bytes takes seconds.
  expect(bytesOf('exports/GC-1.png').toString('hex')).toBe(Buffer.from(png).toString('hex'));
  expect(bytesOf('exports/Harbour-Sound-tickets.pdf').toString('hex')).toBe(Buffer.from(pdf).toString('hex'));
  expect(calls('Share').map((call) => call.options)).toEqual([
    { title: 'GC-1.png', files: ['file:///standin-files:CACHE:exports/GC-1.png'], dialogTitle: 'Save or send GC-1.png' },
    { title: 'Harbour-Sound-tickets.pdf', files: ['file:///standin-files:CACHE:exports/Harbour-Sound-tickets.pdf'], dialogTitle: 'Save or send Harbour-Sound-tickets.pdf' },
  ]);
});

test('a refused download on the phone saves nothing and throws the API error', async () => {
  server.use(http.get(apiUrl('/manage/events/ev-1/tickets.pdf'), () => errorResponse(403, { code: 'forbidden', message: 'Admins only.' })));
  await expect(downloadApiFile('/manage/events/ev-1/tickets.pdf', 'x.pdf')).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  await flushBridge();
  expect(calls('Filesystem')).toEqual([]);
  expect(calls('Share')).toEqual([]);
});
