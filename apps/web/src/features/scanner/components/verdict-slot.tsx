import type { ScanResult } from '../scanner-logic.ts';
import { ResultCard } from './result-card.tsx';
import { useTranslation } from 'react-i18next';

/**
 * Where the latest verdict shows (SPEC §2 "A result card follows each check", §3 only the latest is
 * displayed). The slot keeps one height whether it holds an approval, a denial or nothing yet, so a
 * verdict never pushes the camera, the field or Verify (issue 15 item 14: layout shift ≤ 0.05).
 * Not a live region: screen readers hear each verdict once, from the verdict flash (issue 10 item 2,
 * decision 035); the card stays here to be read at leisure.
 */
export function VerdictSlot({ result }: { result: ScanResult | null }) {
  const { t } = useTranslation();
  return (
    <div className="grid min-h-56 min-[390px]:min-h-50">
      {result ? (
        <ResultCard key={result.id} result={result} />
      ) : (
        <p className="flex items-center justify-center rounded-2xl border-2 border-dashed border-slate-400 p-3 text-center text-lg text-slate-700">
          {t('scanner.noTicketYet')}
        </p>
      )}
    </div>
  );
}
