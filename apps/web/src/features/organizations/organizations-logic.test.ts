import { expect, test } from 'vitest';
import { wireOrganizations } from '@/test/fixtures.ts';
import { activeEventsLabel, toOrganizationItem } from './organizations-logic.ts';

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
