import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { readDeviceSettings } from '@/lib/device-settings.ts';
import { FeedbackSwitches } from './feedback-switches.tsx';

test('Sound and Vibration are switches, both on by default', () => {
  render(<FeedbackSwitches />);
  expect(screen.getByRole('switch', { name: 'Sound' })).toBeChecked();
  expect(screen.getByRole('switch', { name: 'Vibration' })).toBeChecked();
});

test('turning one off is remembered on this device, and the other stays as it was', async () => {
  const user = userEvent.setup();
  const { unmount } = render(<FeedbackSwitches />);
  await user.click(screen.getByRole('switch', { name: 'Sound' }));
  expect(screen.getByRole('switch', { name: 'Sound' })).not.toBeChecked();
  expect(screen.getByRole('switch', { name: 'Vibration' })).toBeChecked();
  expect(JSON.parse(window.localStorage.getItem('deviceSettings') ?? 'null')).toMatchObject({ isSoundOn: false, isVibrationOn: true });

  // Next visit (a new screen, same device).
  unmount();
  render(<FeedbackSwitches />);
  expect(screen.getByRole('switch', { name: 'Sound' })).not.toBeChecked();
  await user.click(screen.getByRole('switch', { name: 'Vibration' }));
  await user.click(screen.getByRole('switch', { name: 'Sound' }));
  expect(readDeviceSettings()).toMatchObject({ isSoundOn: true, isVibrationOn: false });
});

test('a corrupt or outdated stored value reads as the defaults', async () => {
  window.localStorage.setItem('deviceSettings', '{"isSoundOn":"loud","isVibrationOn":false}');
  render(<FeedbackSwitches />);
  await act(async () => undefined);
  expect(screen.getByRole('switch', { name: 'Vibration' })).not.toBeChecked();
  window.localStorage.setItem('deviceSettings', '{"isSoundOn":"loud"}');
  await act(async () => {
    window.dispatchEvent(new StorageEvent('storage', { key: 'deviceSettings' }));
  });
  expect(screen.getByRole('switch', { name: 'Sound' })).toBeChecked();
  expect(screen.getByRole('switch', { name: 'Vibration' })).toBeChecked();
});
