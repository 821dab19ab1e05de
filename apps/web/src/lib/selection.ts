/**
 * The chosen organization, event and event day (SPEC §3 keys `selectedOrganization`, `selectedEvent`,
 * `selectedDay`). Held in memory for synchronous rendering and written through to storage; loaded
 * from storage once at start (`loadSelection`, before the first render).
 *
 * Choosing an item clears the choices below it (a new organization invalidates the stored event and
 * day), so the furthest-step redirect after sign-in never lands on a stale combination.
 *
 * Whenever the event day being scanned changes (another organization, event or day, a cleared
 * selection, logout), what the screens kept for this tab (`tab-memory.ts`: the scanner's latest
 * verdict) is forgotten, so a verdict is never shown under another day's header.
 */
import { useSyncExternalStore } from 'react';
import { type ChosenCheckInList, EventItem, OrganizationItem, type ScanMode, SelectedDay } from './entities.ts';
import { readJson, removeItem, storageKeys, writeJson } from './storage.ts';
import { forgetTabMemory } from './tab-memory.ts';

export interface Selection {
  organization: OrganizationItem | null;
  event: EventItem | null;
  /** The day and, inside it, the check-in list (docs/decisions/109). */
  day: SelectedDay | null;
}

const empty: Selection = { organization: null, event: null, day: null };
let current: Selection = empty;
const listeners = new Set<() => void>();

/** Makes `next` current; `isChange` false when it is only read back from storage at start. */
function publish(next: Selection, isChange = true): void {
  const isSameEventDay = next.event?.id === current.event?.id && next.day?.day === current.day?.day && next.day?.checkInList?.id === current.day?.checkInList?.id;
  if (isChange && !isSameEventDay) forgetTabMemory();
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current selection; re-renders when it changes. */
export function useSelection(): Selection {
  // The same in the build's prerender (none chosen) and in the browser (docs/decisions/082).
  return useSyncExternalStore(subscribe, () => current, () => current);
}

/** The current selection outside React (for example in a query function). */
export function getSelection(): Selection {
  return current;
}

/** Reads the three selections from storage into memory. Call once before the first render. */
export async function loadSelection(): Promise<void> {
  const [organization, event, day] = await Promise.all([
    readJson(storageKeys.selectedOrganization, OrganizationItem),
    readJson(storageKeys.selectedEvent, EventItem),
    readJson(storageKeys.selectedDay, SelectedDay),
  ]);
  publish({ organization, event, day }, false);
}

/** Stores the organization and clears the event and day chosen for another one. */
export async function selectOrganization(organization: OrganizationItem): Promise<void> {
  publish({ organization, event: null, day: null });
  await Promise.all([
    writeJson(storageKeys.selectedOrganization, organization),
    removeItem(storageKeys.selectedEvent),
    removeItem(storageKeys.selectedDay),
  ]);
}

/** Stores the event and clears the day chosen for another one. */
export async function selectEvent(event: EventItem): Promise<void> {
  publish({ ...current, event, day: null });
  await Promise.all([writeJson(storageKeys.selectedEvent, event), removeItem(storageKeys.selectedDay)]);
}

/** Stores the event day, with its check-in list (`SelectedDay`: absent, null = still to choose, or one). */
export async function selectDay(day: SelectedDay): Promise<void> {
  publish({ ...current, day });
  await writeJson(storageKeys.selectedDay, day);
}

/** Stores the check-in list chosen for the stored day, inside `selectedDay` (docs/decisions/109). No day: nothing. */
export async function selectCheckInList(checkInList: ChosenCheckInList): Promise<void> {
  if (!current.day) return;
  // Another list starts at entry: its exits and info scans are chosen again there (docs/decisions/113).
  const { scanMode: _previousMode, ...day } = current.day;
  await selectDay({ ...day, checkInList: { id: checkInList.id, name: checkInList.name } });
}

/**
 * Marks the stored day's check-in list as still to choose (`checkInList: null`, docs/decisions/109,
 * 151): /scanner then sends staff to the list step on /day-select. Entry / Exit is chosen again at
 * the list chosen next. No day: nothing.
 */
export async function askForCheckInList(): Promise<void> {
  if (!current.day) return;
  const { scanMode: _previousMode, ...day } = current.day;
  await selectDay({ ...day, checkInList: null });
}

/**
 * Stores how the scanner checks codes on the stored day (docs/decisions/113), inside `selectedDay`:
 * 'entry' removes the field (the default). No day: nothing.
 */
export async function selectScanMode(mode: ScanMode): Promise<void> {
  if (!current.day) return;
  const { scanMode: _previousMode, ...day } = current.day;
  await selectDay(mode === 'entry' ? day : { ...day, scanMode: mode });
}

/**
 * Clears one selection and everything below it: 'organization' clears all three, 'event' the event
 * and day, 'day' the day only.
 */
export async function clearSelection(from: 'organization' | 'event' | 'day'): Promise<void> {
  const next: Selection = {
    organization: from === 'organization' ? null : current.organization,
    event: from === 'day' ? current.event : null,
    day: null,
  };
  publish(next);
  const keys = [
    storageKeys.selectedDay,
    ...(from !== 'day' ? [storageKeys.selectedEvent] : []),
    ...(from === 'organization' ? [storageKeys.selectedOrganization] : []),
  ];
  await Promise.all(keys.map((key) => removeItem(key)));
}
