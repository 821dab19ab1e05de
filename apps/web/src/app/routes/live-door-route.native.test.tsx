/**
 * The live door's CSV exports in the native app (docs/decisions/144), on Capacitor's real Android
 * bridge with the Java side played by the stand-in: the WebView ignores a download link, so the CSV
 * is written to the app's cache folder (Filesystem) and handed to the share sheet (Share); a file
 * that cannot be written or shared is said in a toast; a sheet closed without a choice is not a
 * failure.
 */
import { standIn } from '@/test/android-bridge-install.ts';
import { type LiveDoor, liveDoorPaths } from '@gatecheck/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test } from 'vitest';
import { DEFAULT_STAND_IN_OPTIONS } from '@/test/android-bridge.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const DAY = testDay.day;
const selection = { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent, day: testDay };
/** The day's arrivals as the server sends them: UTF-8, with names beyond ASCII. */
const ARRIVALS_CSV = 'check_in_list,slot_start,slot_end,arrivals\nNord-Eingang Süd,2026-07-11T18:00:00Z,2026-07-11T18:05:00Z,3\n"Café, VIP",2026-07-11T18:05:00Z,2026-07-11T18:10:00Z,1\n';
const SCAN_LOG_CSV = 'scanned_at,code,verdict\n2026-07-11T18:01:00Z,GC-1,approved\n';

const called = (pluginId: string, methodName: string) => standIn().calls.filter((call) => call.pluginId === pluginId && call.methodName === methodName).map((call) => call.options);

function liveFigures(): LiveDoor {
  return {
    eventId: testEvent.id,
    day: DAY,
    generatedAt: '2026-07-11T18:12:00.000Z',
    slotMinutes: 5,
    checkedIn: 4,
    validTickets: 20,
    ticketTypes: [],
    lists: [],
    scansLastMinute: 0,
    denials: [],
    devices: [],
    occupancy: { inside: 4, capacity: null },
  };
}

beforeEach(() => {
  standIn().calls.length = 0;
  Object.assign(standIn().options, DEFAULT_STAND_IN_OPTIONS, { filesFail: false, shareOutcome: 'shared' });
  server.use(
    http.get(apiUrl(liveDoorPaths.live(testEvent.id, DAY)), () => HttpResponse.json<LiveDoor>(liveFigures())),
    http.get(apiUrl(liveDoorPaths.arrivalsCsv(testEvent.id, DAY)), () => new HttpResponse(ARRIVALS_CSV, { headers: { 'content-type': 'text/csv' } })),
    http.get(apiUrl(liveDoorPaths.scanLogCsv(testEvent.id)), () => new HttpResponse(SCAN_LOG_CSV, { headers: { 'content-type': 'text/csv' } })),
  );
});

test("on the phone an export writes the day's CSV to the app's cache and opens the share sheet with it", async () => {
  const { user } = renderApp({ route: `/events/${testEvent.id}/live?day=${DAY}`, selection });
  await user.click(await screen.findByRole('button', { name: 'Arrivals (CSV)' }));
  await waitFor(() => expect(called('Share', 'share')).toHaveLength(1));

  const [written] = called('Filesystem', 'writeFile');
  expect(written).toEqual({ path: `exports/arrivals-day-${DAY}.csv`, directory: 'CACHE', recursive: true, data: expect.any(String) });
  // The server's bytes, as they are: base64 over the bridge, decoded by the plugin.
  expect(Buffer.from(String(written?.data), 'base64')).toEqual(Buffer.from(ARRIVALS_CSV, 'utf8'));
  expect(called('Filesystem', 'appendFile')).toEqual([]);
  // The file just written, named so the phone offers it as a CSV.
  expect(called('Share', 'share')).toEqual([
    { title: `arrivals-day-${DAY}.csv`, files: [`file:///standin-files:CACHE:exports/arrivals-day-${DAY}.csv`], dialogTitle: `Save or send arrivals-day-${DAY}.csv` },
  ]);
  await waitFor(() => expect(screen.getByRole('button', { name: 'Arrivals (CSV)' })).toBeEnabled());
  expect(screen.queryByText(/could not be saved/)).not.toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('a CSV the phone cannot write, or a share sheet that fails, is said in a toast', async () => {
  standIn().options.filesFail = true;
  const { user } = renderApp({ route: `/events/${testEvent.id}/live?day=${DAY}`, selection });
  await user.click(await screen.findByRole('button', { name: 'Arrivals (CSV)' }));
  expect(await screen.findByText(`arrivals-day-${DAY}.csv could not be saved`)).toBeInTheDocument();
  expect(screen.getByText('Nothing was saved. Try again; if it fails again, check the free space on this phone.')).toBeInTheDocument();
  expect(called('Share', 'share')).toEqual([]);

  standIn().options.filesFail = false;
  standIn().options.shareOutcome = 'fails';
  await waitFor(() => expect(screen.getByRole('button', { name: 'Scan log (CSV)' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Scan log (CSV)' }));
  expect(await screen.findByText(`scan-log-day-${DAY}.csv could not be saved`)).toBeInTheDocument();
  expect(called('Share', 'share')).toHaveLength(1);
});

test('closing the share sheet without choosing an app is not a failure', async () => {
  standIn().options.shareOutcome = 'canceled';
  const { user } = renderApp({ route: `/events/${testEvent.id}/live?day=${DAY}`, selection });
  await user.click(await screen.findByRole('button', { name: 'Scan log (CSV)' }));
  await waitFor(() => expect(called('Share', 'share')).toHaveLength(1));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Scan log (CSV)' })).toBeEnabled());
  expect(screen.queryByText(/could not be saved/)).not.toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});
