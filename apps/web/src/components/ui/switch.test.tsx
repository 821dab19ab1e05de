import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { expect, test } from 'vitest';
import { Switch } from './switch.tsx';

function Example({ hint }: { hint?: string }) {
  const [checked, setChecked] = useState(false);
  return (
    <Switch checked={checked} onCheckedChange={setChecked} hint={hint}>
      Continuous scanning
    </Switch>
  );
}

test('a switch named by its label, its state in aria-checked and in words, toggled by a tap', async () => {
  const user = userEvent.setup();
  render(<Example />);
  const toggle = screen.getByRole('switch', { name: 'Continuous scanning' });
  expect(toggle).toHaveAttribute('aria-checked', 'false');
  expect(toggle).toHaveTextContent('Off');
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-checked', 'true');
  expect(toggle).toHaveTextContent('On');
});

test('the keyboard toggles it: Tab reaches it, Space and Enter flip it', async () => {
  const user = userEvent.setup();
  render(<Example />);
  await user.tab();
  const toggle = screen.getByRole('switch', { name: 'Continuous scanning' });
  expect(toggle).toHaveFocus();
  await user.keyboard(' ');
  expect(toggle).toBeChecked();
  await user.keyboard('{Enter}');
  expect(toggle).not.toBeChecked();
});

test('a hint describes it without changing its name', () => {
  render(<Example hint="The camera keeps running." />);
  expect(screen.getByRole('switch', { name: 'Continuous scanning' })).toHaveAccessibleDescription('The camera keeps running.');
});
