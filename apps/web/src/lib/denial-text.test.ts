import { type DayDenial, dayDenialMessage, type ListDenial, listDenialMessage } from '@gatecheck/contract';
import { afterEach, expect, test } from 'vitest';
import { dayDenialText, denialText, eventDayDate } from './denial-text.ts';
import { chooseLanguage } from './i18n/choice.ts';

afterEach(async () => {
  await chooseLanguage('en');
});

const opening = { day: 1, name: 'Opening Night', date: '2026-11-23' };
const mainDay = { day: 2, name: 'Main Day', date: '2026-11-24' };
const closing = { day: 3, name: 'Closing Day', date: '2026-11-25' };
const cases: DayDenial[] = [
  { kind: 'no_such_day', day: 4 },
  { kind: 'ticket_days', day: 1, admitted: [] },
  { kind: 'ticket_days', day: 2, admitted: [mainDay] },
  { kind: 'ticket_days', day: 2, admitted: [opening, closing] },
  { kind: 'ticket_days', day: 2, admitted: [opening, mainDay, closing] },
  { kind: 'not_event_day', selected: opening, isPast: true, today: mainDay, firstDate: opening.date, lastDate: closing.date },
  { kind: 'not_event_day', selected: opening, isPast: false, today: null, firstDate: opening.date, lastDate: closing.date },
  { kind: 'not_event_day', selected: opening, isPast: false, today: null, firstDate: opening.date, lastDate: opening.date },
  { kind: 'not_event_day', selected: closing, isPast: true, today: null, firstDate: opening.date, lastDate: closing.date },
];

test('in English the words are exactly the contract\'s (the server\'s `message`)', () => {
  for (const facts of cases) expect(dayDenialText(facts)).toBe(dayDenialMessage(facts));
});

test('in German the same facts read in German, dates included', async () => {
  await chooseLanguage('de');
  expect(eventDayDate('2026-11-24')).toBe('Di., 24. November');
  expect(cases.map(dayDenialText)).toEqual([
    'Diese Veranstaltung hat keinen Tag 4.',
    'Dieses Ticket gilt nicht an Tag 1.',
    'Dieses Ticket gilt für Tag 2, Di., 24. November.',
    'Dieses Ticket gilt für Tag 1, Mo., 23. November und Tag 3, Mi., 25. November.',
    'Dieses Ticket gilt für Tag 1, Mo., 23. November, Tag 2, Di., 24. November und Tag 3, Mi., 25. November.',
    'Tag 1 (Opening Night) war am Mo., 23. November. Heute ist Tag 2, Di., 24. November.',
    'Tag 1 (Opening Night) ist am Mo., 23. November, nicht heute. Die Veranstaltung läuft von Mo., 23. November bis Mi., 25. November.',
    'Tag 1 (Opening Night) ist am Mo., 23. November, nicht heute. Die Veranstaltung ist am Mo., 23. November.',
    'Tag 3 (Closing Day) war am Mi., 25. November. Die Veranstaltung läuft von Mo., 23. November bis Mi., 25. November.',
  ]);
});

test('a ticket not on the check-in list names where it is valid: in English as the contract words it, and in German', async () => {
  const vipGate = { id: 'l2', name: 'VIP Gate' };
  const lists: ListDenial[] = [
    { checkInList: { id: 'l1', name: 'Main entrance' }, validAt: [vipGate] },
    { checkInList: vipGate, validAt: [{ id: 'l1', name: 'Main entrance' }, { id: 'l3', name: 'Merch desk' }] },
    { checkInList: vipGate, validAt: [] },
  ];
  for (const listDenial of lists) expect(denialText({ reason: 'not_on_list', listDenial })).toBe(listDenialMessage(listDenial));
  expect(denialText({ reason: 'not_on_list', listDenial: lists[0] })).toBe('Not valid at this entrance — valid at VIP Gate');
  await chooseLanguage('de');
  expect(lists.map((listDenial) => denialText({ reason: 'not_on_list', listDenial }))).toEqual([
    'Nicht gültig an diesem Eingang — gültig an: VIP Gate',
    'Nicht gültig an diesem Eingang — gültig an: Main entrance und Merch desk',
    'Nicht gültig an diesem Eingang — heute an keinem Eingang gültig',
  ]);
  expect(denialText({ reason: 'not_on_list' })).toBe('Nicht gültig an diesem Eingang');
});
