import type { ReactNode } from 'react';
import type { ScanResult } from '../scanner-logic.ts';
import { ResultCard } from './result-card.tsx';
import { useTranslation } from 'react-i18next';

/**
 * Where the latest verdict shows (SPEC §2 "A result card follows each check", §3 only the latest is
 * displayed). The slot has one fixed height whether it holds an approval, a denial, a card with a
 * check-in note or nothing yet, so a verdict never pushes the camera, the field or Verify (issue 15
 * item 14: layout shift ≤ 0.05); what does not fit (a note's card's details) scrolls inside the
 * card (docs/decisions/113).
 * Not a live region: screen readers hear each verdict once, from the verdict flash (issue 10 item 2,
 * decision 035); the card stays here to be read at leisure.
 */
export function VerdictSlot({ result, children }: { result: ScanResult | null; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="grid h-56 min-[390px]:h-50" data-testid="verdict-slot">
      {/* In its place: an info scan's card (docs/decisions/113). */}
      {children ?? (result ? (
        <ResultCard key={result.id} result={result} />
      ) : (
        <p className="flex items-center justify-center rounded-2xl border-2 border-dashed border-slate-400 p-3 text-center text-lg text-slate-700">
          {t('scanner.noTicketYet')}
        </p>
      ))}
    </div>
  );
}
