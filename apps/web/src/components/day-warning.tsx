/**
 * A warning line about the event day (issue 15): an icon and the words, never colour alone, dark
 * text on a light amber field for sunlight.
 */
import { TriangleAlert } from 'lucide-react';

/** Shows `text` as a warning; `role="note"` so it is read with the card or header it belongs to. */
export function DayWarning({ text }: { text: string }) {
  return (
    <span role="note" className="flex items-start gap-2 rounded-lg border-2 border-amber-800 bg-amber-50 p-2 text-base font-semibold text-amber-950">
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <span>{text}</span>
    </span>
  );
}
