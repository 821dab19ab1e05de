/**
 * The tappable list the select screens share (SPEC §2: organization, event and day cards): one big
 * button per item (a whole card is the touch target, for gloves), an optional leading icon and a
 * chevron that says "goes on".
 */
import { ChevronRight, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A vertical list of choices; put `ChoiceCard`s inside. */
export function ChoiceList({ children }: { children: ReactNode }) {
  return <ul className="flex flex-col gap-3">{children}</ul>;
}

/**
 * One choice: a full-width button whose accessible name is its text content.
 * `icon` (optional) is decorative; `onChoose` runs on click, Enter or Space. `isDisabled` shows the
 * item but refuses the choice (no chevron: it does not go on); put the reason in `children`.
 */
export function ChoiceCard({
  icon: Icon,
  onChoose,
  isDisabled = false,
  children,
}: {
  icon?: LucideIcon;
  onChoose: () => void;
  isDisabled?: boolean;
  children: ReactNode;
}) {
  return (
    <li>
      <button
        type="button"
        onClick={onChoose}
        disabled={isDisabled}
        className="flex w-full items-center gap-4 rounded-2xl border-2 border-slate-200 bg-white p-5 text-left shadow-sm hover:border-blue-700 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-600 active:bg-slate-50 disabled:border-dashed disabled:border-slate-400 disabled:bg-slate-100 disabled:shadow-none disabled:hover:border-slate-400"
      >
        {Icon && <Icon aria-hidden="true" className="size-8 shrink-0 text-blue-800" />}
        <span className="flex min-w-0 flex-1 flex-col gap-1">{children}</span>
        {!isDisabled && <ChevronRight aria-hidden="true" className="size-6 shrink-0 text-slate-600" />}
      </button>
    </li>
  );
}
