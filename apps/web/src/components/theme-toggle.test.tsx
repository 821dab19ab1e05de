import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { applyTheme, followTheme } from '@/lib/theme.ts';
import { ThemeToggle } from './theme-toggle.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  applyTheme('light');
});

function stubDevicePrefersDark(isDark: boolean) {
  vi.stubGlobal('matchMedia', () => ({ matches: isDark, addEventListener: () => undefined, removeEventListener: () => undefined }));
}

test('Theme offers System, Light and Dark, System chosen by default', () => {
  render(<ThemeToggle />);
  const group = screen.getByRole('group', { name: 'Theme' });
  expect(group).toBeInTheDocument();
  expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
  expect(screen.getByRole('radio', { name: 'Light' })).not.toBeChecked();
  expect(screen.getByRole('radio', { name: 'Dark' })).not.toBeChecked();
});

test('choosing Dark puts the dark class on <html> and is remembered; System goes back to the device', async () => {
  stubDevicePrefersDark(false);
  const stop = followTheme();
  const user = userEvent.setup();
  const { unmount } = render(<ThemeToggle />);
  expect(document.documentElement).not.toHaveClass('dark');

  await user.click(screen.getByRole('radio', { name: 'Dark' }));
  expect(document.documentElement).toHaveClass('dark');
  unmount();
  render(<ThemeToggle />);
  expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();

  await user.click(screen.getByRole('radio', { name: 'System' }));
  expect(document.documentElement).not.toHaveClass('dark');
  stop();
});

test('with System chosen on a device that prefers dark, the page is dark', () => {
  stubDevicePrefersDark(true);
  const stop = followTheme();
  render(<ThemeToggle />);
  expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
  expect(document.documentElement).toHaveClass('dark');
  stop();
});

test('the choice can be made with the keyboard (arrow keys move between the native radios)', async () => {
  const user = userEvent.setup();
  render(<ThemeToggle />);
  await user.tab();
  expect(screen.getByRole('radio', { name: 'System' })).toHaveFocus();
  await user.keyboard('{ArrowRight}');
  expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
});
