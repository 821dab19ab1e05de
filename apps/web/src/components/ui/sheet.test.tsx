/**
 * A toast's close button takes taps while a sheet is open (the toasts sit in the band above it,
 * decision 093): a tap there is meant for the toast, not a tap outside the sheet, which closes it.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { Toaster, toast } from 'sonner';
import { expect, test } from 'vitest';
import { Sheet } from './sheet.tsx';

function OpenSheetWithToasts() {
  const [isOpen, setOpen] = useState(true);
  return (
    <>
      <p>Scanning For</p>
      <Sheet open={isOpen} onOpenChange={setOpen} title="Find attendee" closeLabel="Close" trigger={<button type="button">Find attendee</button>}>
        <p>Search by name or ticket code.</p>
      </Sheet>
      <Toaster closeButton />
    </>
  );
}

test("a tap on a toast's close button while a sheet is open leaves the sheet open; a tap outside both closes it", async () => {
  render(<OpenSheetWithToasts />);
  act(() => {
    toast('Valid Ticket', { description: 'Access granted' });
  });
  // The sheet is modal: what lies outside it is hidden from the accessibility tree, the toasts too.
  const toastItem = (await screen.findByText('Valid Ticket')).closest('[data-sonner-toast]');
  if (!(toastItem instanceof HTMLElement)) throw new Error('no toast on screen');
  const close = within(toastItem).getByRole('button', { name: 'Close toast', hidden: true });
  // sonner captures the pointer on press; jsdom has no pointer capture.
  close.setPointerCapture = () => undefined;
  fireEvent.pointerDown(close);
  fireEvent.pointerUp(close);
  fireEvent.click(close);
  expect(screen.getByRole('dialog', { name: 'Find attendee' })).toBeInTheDocument();
  // A tap on the screen outside the sheet still closes it.
  fireEvent.pointerDown(screen.getByText('Scanning For'));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Find attendee' })).toBeNull());
});
