import { expect, test } from 'vitest';
import { wireOrganizations } from '@/test/fixtures.ts';
import { chooseLanguage } from '@/lib/i18n/choice.ts';
import { activeEventsLabel, roleBadgeText, toOrganizationItem } from './organizations-logic.ts';

test('an organization is mapped with its role and the count of its active events (SPEC §3)', () => {
  const [first] = wireOrganizations;
  if (!first) throw new Error('fixture missing');
  expect(toOrganizationItem(first)).toEqual({
    id: 'org-1',
    name: 'Harbour Festivals',
    description: 'Open-air concerts at the harbour',
    role: 'staff',
    activeEventCount: 2,
  });
});

test('an organization without description gets an empty one', () => {
  expect(toOrganizationItem({ _id: 'o', name: 'N', description: null, role: 'admin', activeEvents: [] }).description).toBe('');
});

test('active event counts read naturally', () => {
  expect(activeEventsLabel(0)).toBe('0 active events');
  expect(activeEventsLabel(1)).toBe('1 active event');
  expect(activeEventsLabel(2)).toBe('2 active events');
});

test('the role badge reads the role as sent in English and in words in German; an unknown role stays as sent', async () => {
  expect(['staff', 'supervisor', 'admin', 'owner'].map(roleBadgeText)).toEqual(['staff', 'supervisor', 'admin', 'owner']);
  await chooseLanguage('de');
  expect(['staff', 'supervisor', 'admin', 'owner'].map(roleBadgeText)).toEqual(['Personal', 'Aufsicht', 'Admin', 'owner']);
});
