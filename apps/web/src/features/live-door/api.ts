/**
 * The live door's CSV exports (docs/decisions/117): the day's arrivals per list and 5-minute slot,
 * and the day's scan log, fetched with the session like every call and handed to the browser as a
 * file download. The figures themselves are `liveDoorQuery` (lib/check-ins).
 */
import { liveDoorPaths } from '@gatecheck/contract/live-door';
import { downloadApiFile } from '@/lib/download-file.ts';

/** The page of the live door of `eventId` (route `paths.liveDoor`), on `day` when given (else the selected day of that event). */
export function liveDoorPagePath(eventId: string, day?: number): string {
  return `/events/${encodeURIComponent(eventId)}/live${day === undefined ? '' : `?day=${day}`}`;
}

/** Which export: arrivals per list and slot, or the scan log of the day. */
export type LiveDoorExport = 'arrivals' | 'scanLog';

/** The file name the browser saves an export under. */
export function exportFileName(kind: LiveDoorExport, day: number): string {
  return kind === 'arrivals' ? `arrivals-day-${day}.csv` : `scan-log-day-${day}.csv`;
}

/**
 * Fetches export `kind` of `eventId` on `day` and saves it as a CSV file.
 * @throws {ApiError} when the server refuses or cannot be reached (nothing is saved).
 */
export async function downloadLiveDoorCsv(eventId: string, day: number, kind: LiveDoorExport): Promise<void> {
  const path = kind === 'arrivals' ? liveDoorPaths.arrivalsCsv(eventId, day) : `${liveDoorPaths.scanLogCsv(eventId)}?day=${day}`;
  await downloadApiFile(path, exportFileName(kind, day), 'text/csv;charset=utf-8');
}
