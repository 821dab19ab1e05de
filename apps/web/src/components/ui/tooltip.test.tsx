import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';

afterEach(() => {
  vi.useRealTimers();
});

/** tooltip.tsx as a fresh module: Radix's tooltip not loaded yet (the files of a worker share modules, decision 065). */
async function freshTooltip() {
  vi.resetModules();
  return (await import('./tooltip.tsx')).Tooltip;
}

test("a tap never loads Radix's tooltip; a click pressed while it arrives on hover is kept, and the hint shows after SPEC §9's 700 ms", async () => {
  const Tooltip = await freshTooltip();
  const onBack = vi.fn();
  render(
    <Tooltip label="Back">
      <button type="button" aria-label="Back" onClick={onBack}>
        ←
      </button>
    </Tooltip>,
  );
  const bare = screen.getByRole('button', { name: 'Back' });

  // A touch: the control works bare, and stays bare (no trigger of Radix's around it).
  fireEvent.pointerEnter(bare, { pointerType: 'touch' });
  fireEvent.pointerDown(bare, { pointerType: 'touch' });
  fireEvent.pointerUp(bare, { pointerType: 'touch' });
  fireEvent.click(bare);
  expect(onBack).toHaveBeenCalledTimes(1);
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(screen.getByRole('button', { name: 'Back' })).toBe(bare);
  expect(bare).not.toHaveAttribute('data-state');

  // A mouse comes over it and presses at once; the code arrives while the button is held down.
  fireEvent.pointerEnter(bare, { pointerType: 'mouse' });
  fireEvent.pointerDown(bare, { pointerType: 'mouse' });
  await act(() => import('./radix-tooltip.tsx'));
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  // Not swapped under the press: the release's click reaches the same button.
  expect(screen.getByRole('button', { name: 'Back' })).toBe(bare);
  fireEvent.pointerUp(bare, { pointerType: 'mouse' });
  fireEvent.click(bare);
  expect(onBack).toHaveBeenCalledTimes(2);

  // After the click, Radix's trigger is around the control, which still works.
  await waitFor(() => expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('data-state', 'closed'));
  const wrapped = screen.getByRole('button', { name: 'Back' });
  fireEvent.click(wrapped);
  expect(onBack).toHaveBeenCalledTimes(3);

  // The hint: 700 ms after the pointer moves over it, not before.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  fireEvent.pointerMove(wrapped, { pointerType: 'mouse' });
  act(() => vi.advanceTimersByTime(650));
  expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  act(() => vi.advanceTimersByTime(100));
  expect(screen.getByRole('tooltip')).toHaveTextContent('Back');
});

test('a control with keyboard focus keeps it when Radix\'s tooltip comes around it, and shows its hint', async () => {
  const Tooltip = await freshTooltip();
  render(
    <Tooltip label="Back">
      <button type="button" aria-label="Back">
        ←
      </button>
    </Tooltip>,
  );
  const bare = screen.getByRole('button', { name: 'Back' });
  // jsdom has no :focus-visible of its own: focus given by the keyboard is what the browser reports so.
  const elementMatches = Element.prototype.matches;
  const matches = vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
    return selector === ':focus-visible' ? this === document.activeElement : elementMatches.call(this, selector);
  });
  act(() => bare.focus());
  await waitFor(() => expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('data-state'));
  matches.mockRestore();
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Back' }));
  expect(await screen.findByRole('tooltip')).toHaveTextContent('Back');
});

test("a touch press while Radix's tooltip arrives (asked for by a hybrid laptop's mouse) keeps its tap's click, which comes after the release", async () => {
  const Tooltip = await freshTooltip();
  const onBack = vi.fn();
  render(
    <Tooltip label="Back">
      <button type="button" aria-label="Back" onClick={onBack}>
        ←
      </button>
    </Tooltip>,
  );
  const bare = screen.getByRole('button', { name: 'Back' });
  // The mouse passed over it (the module is asked for); then a finger presses it.
  fireEvent.pointerEnter(bare, { pointerType: 'mouse' });
  fireEvent.pointerDown(bare, { pointerType: 'touch' });
  await act(() => import('./radix-tooltip.tsx'));
  fireEvent.pointerUp(bare, { pointerType: 'touch' });
  // The tap gesture's click comes in a later task than the finger's lifting.
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(screen.getByRole('button', { name: 'Back' })).toBe(bare);
  fireEvent.click(bare);
  expect(onBack).toHaveBeenCalledTimes(1);
  // After the click, Radix's trigger comes around the control.
  await waitFor(() => expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('data-state', 'closed'));
});

test("a touch released before Radix's tooltip arrives keeps its tap's click too", async () => {
  const Tooltip = await freshTooltip();
  const onBack = vi.fn();
  render(
    <Tooltip label="Back">
      <button type="button" aria-label="Back" onClick={onBack}>
        ←
      </button>
    </Tooltip>,
  );
  const bare = screen.getByRole('button', { name: 'Back' });
  fireEvent.pointerEnter(bare, { pointerType: 'mouse' });
  fireEvent.pointerDown(bare, { pointerType: 'touch' });
  fireEvent.pointerUp(bare, { pointerType: 'touch' });
  // The module arrives between the lifting and the tap's click.
  await act(() => import('./radix-tooltip.tsx'));
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(screen.getByRole('button', { name: 'Back' })).toBe(bare);
  fireEvent.click(bare);
  expect(onBack).toHaveBeenCalledTimes(1);
  await waitFor(() => expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('data-state', 'closed'));
});

test("a touch that brings no click (the finger slid away) lets Radix's tooltip come around the control a second later", async () => {
  const Tooltip = await freshTooltip();
  render(
    <Tooltip label="Back">
      <button type="button" aria-label="Back">
        ←
      </button>
    </Tooltip>,
  );
  const bare = screen.getByRole('button', { name: 'Back' });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  fireEvent.pointerEnter(bare, { pointerType: 'mouse' });
  fireEvent.pointerDown(bare, { pointerType: 'touch' });
  fireEvent.pointerUp(bare, { pointerType: 'touch' });
  await act(() => import('./radix-tooltip.tsx'));
  act(() => vi.advanceTimersByTime(900));
  expect(screen.getByRole('button', { name: 'Back' })).not.toHaveAttribute('data-state');
  act(() => vi.advanceTimersByTime(200));
  expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('data-state', 'closed');
});
