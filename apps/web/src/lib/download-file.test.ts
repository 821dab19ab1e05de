import { http, HttpResponse } from 'msw';
import { afterEach, expect, test, vi } from 'vitest';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { downloadApiFile } from './download-file.ts';

const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
  vi.restoreAllMocks();
});

/** The browser's part of a download (jsdom has no object URLs and does not follow a click): recorded. */
function recordDownloads() {
  const files: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test-${blobs.size}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) files.push({ name: this.download, blob });
  });
  return files;
}

test('an API answer is saved under the name given, with its own media type or the one asked for', async () => {
  server.use(
    http.get(apiUrl('/manage/events/ev-1/tickets.pdf'), () => new HttpResponse('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } })),
    http.get(apiUrl('/events/ev-1/days/1/arrivals.csv'), () => new HttpResponse('check_in_list,arrivals\n', { headers: { 'content-type': 'text/csv' } })),
  );
  const files = recordDownloads();
  await downloadApiFile('/manage/events/ev-1/tickets.pdf', 'Harbour-Sound-tickets.pdf');
  await downloadApiFile('/events/ev-1/days/1/arrivals.csv', 'arrivals-day-1.csv', 'text/csv;charset=utf-8');
  expect(files.map((file) => [file.name, file.blob.type])).toEqual([
    ['Harbour-Sound-tickets.pdf', 'application/pdf'],
    ['arrivals-day-1.csv', 'text/csv;charset=utf-8'],
  ]);
  const text = await new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(files[1]?.blob ?? new Blob());
  });
  expect(text).toBe('check_in_list,arrivals\n');
  // The link was only the browser's handle: nothing is left in the page.
  expect(document.querySelectorAll('a[download]')).toHaveLength(0);
});

test('a refused download saves nothing and throws the API error', async () => {
  server.use(http.get(apiUrl('/manage/events/ev-1/tickets.pdf'), () => errorResponse(403, { code: 'forbidden', message: 'Admins only.' })));
  const files = recordDownloads();
  await expect(downloadApiFile('/manage/events/ev-1/tickets.pdf', 'x.pdf')).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  expect(files).toEqual([]);
});
