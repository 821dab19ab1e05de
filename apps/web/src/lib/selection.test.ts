import { act, renderHook } from '@testing-library/react';
import { expect, test } from 'vitest';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { clearSelection, getSelection, loadSelection, selectDay, selectEvent, selectOrganization, useSelection } from './selection.ts';

test('choices are stored under the SPEC §3 keys in local storage on the web', async () => {
  await selectOrganization(testOrganization);
  await selectEvent(testEvent);
  await selectDay(testDay);
  expect(JSON.parse(localStorage.getItem('selectedOrganization') ?? 'null')).toEqual(testOrganization);
  expect(JSON.parse(localStorage.getItem('selectedEvent') ?? 'null')).toEqual(testEvent);
  expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual(testDay);
});

test('stored choices are loaded at start', async () => {
  localStorage.setItem('selectedOrganization', JSON.stringify(testOrganization));
  localStorage.setItem('selectedEvent', JSON.stringify(testEvent));
  await loadSelection();
  expect(getSelection()).toEqual({ organization: testOrganization, event: testEvent, day: null });
});

test('an unreadable stored choice is treated as absent', async () => {
  localStorage.setItem('selectedEvent', '{not json');
  localStorage.setItem('selectedDay', JSON.stringify({ day: 'two' }));
  await loadSelection();
  expect(getSelection()).toEqual({ organization: null, event: null, day: null });
});

test('choosing another organization forgets the event and day of the previous one', async () => {
  await selectOrganization(testOrganization);
  await selectEvent(testEvent);
  await selectDay(testDay);
  await selectOrganization({ ...testOrganization, id: 'org-2' });
  expect(getSelection()).toMatchObject({ event: null, day: null });
  expect(localStorage.getItem('selectedEvent')).toBeNull();
  expect(localStorage.getItem('selectedDay')).toBeNull();
});

test('clearing a step clears the steps after it but keeps the ones before', async () => {
  await selectOrganization(testOrganization);
  await selectEvent(testEvent);
  await selectDay(testDay);
  await clearSelection('day');
  expect(getSelection()).toEqual({ organization: testOrganization, event: testEvent, day: null });
  await selectDay(testDay);
  await clearSelection('event');
  expect(getSelection()).toEqual({ organization: testOrganization, event: null, day: null });
  await clearSelection('organization');
  expect(getSelection()).toEqual({ organization: null, event: null, day: null });
  expect(localStorage.length).toBe(0);
});

test('components re-render when the selection changes', async () => {
  const { result } = renderHook(() => useSelection());
  expect(result.current.organization).toBeNull();
  await act(() => selectOrganization(testOrganization));
  expect(result.current.organization).toEqual(testOrganization);
});

test('what the scanner kept for this tab is forgotten when the event day changes, not when the same day is chosen again or the choices are loaded', async () => {
  await selectOrganization(testOrganization);
  await selectEvent(testEvent);
  await selectDay(testDay);
  sessionStorage.setItem('gatecheck.scanner', '{"kept":true}');
  await selectDay({ ...testDay });
  await loadSelection();
  expect(sessionStorage.getItem('gatecheck.scanner')).toBe('{"kept":true}');

  await selectDay({ ...testDay, day: testDay.day + 1 });
  expect(sessionStorage.getItem('gatecheck.scanner')).toBeNull();

  sessionStorage.setItem('gatecheck.scanner', '{"kept":true}');
  await clearSelection('organization');
  expect(sessionStorage.getItem('gatecheck.scanner')).toBeNull();
});
