import { CircleCheck, CircleX } from 'lucide-react';
import { useEffect } from 'react';
import { cn } from '@/lib/cn.ts';
import type { ScanResult } from '../scanner-logic.ts';
import { verdictFlashContent } from '../verdict-flash-logic.ts';
import { CheckInNote } from './check-in-note.tsx';

/**
 * The verdict nobody can miss (issue 10 item 2): while `result` is set, the whole screen turns the
 * verdict's colour with its icon, the word APPROVED or DENIED, 'Offline' beside it when the device
 * decided without the server (issue 12), for a denial the reason in plain words (colour is
 * never the only signal), and the ticket's check-in note large, under 'ATTENTION' when it needs
 * attention (docs/decisions/102). A tap on it, or Escape, calls `onDismiss`; the caller
 * ends it after `VERDICT_FLASH_MS` anyway (use-verdict-feedback.ts). It fades in unless the device
 * asks for reduced motion, where it simply appears.
 *
 * Screen readers hear each verdict once, from this component's always-present live region (the
 * result card below is not live, and the verdict toast is hidden from them, decision 035). The region
 * is emptied when the flash ends, so the same words for the next ticket are read again.
 *
 * The flash takes no focus: the manual field keeps it, so the next code can be typed at once.
 */
export function VerdictFlash({ result, onDismiss }: { result: ScanResult | null; onDismiss: () => void }) {
  const content = result === null ? null : verdictFlashContent(result);
  const isShown = content !== null;

  useEffect(() => {
    if (!isShown) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onDismiss();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isShown, onDismiss]);

  const Icon = content?.isApproved ? CircleCheck : CircleX;
  return (
    <>
      <div aria-live="assertive" aria-atomic="true" className="sr-only">
        {content?.announcement ?? ''}
      </div>
      {content && (
        // A pointer-only shortcut: keyboards have Escape, and the flash ends by itself in a second.
        <div
          data-verdict={content.isApproved ? 'approved' : 'denied'}
          data-attention={content.attention?.requiresAttention === true ? 'true' : undefined}
          onClick={onDismiss}
          // Above the toasts (sonner's z-index): the verdict's toast would hide the top of a tall flash
          // (its icon, with 'Offline' and a note) for its second (docs/decisions/113). `safe` centring:
          // a flash taller than the screen starts at its top and scrolls, none of it cut off.
          className={cn(
            'fixed inset-0 z-[1000000000] flex cursor-pointer flex-col items-center justify-center-safe text-center text-white select-none motion-safe:animate-verdict-flash',
            content.attention ? 'gap-3 overflow-y-auto p-4' : 'gap-4 p-6',
            content.isApproved ? 'bg-green-700' : 'bg-red-700',
          )}
        >
          <Icon aria-hidden="true" className={cn('shrink-0', content.attention ? 'size-20' : 'size-32')} strokeWidth={2.5} />
          <p className="text-4xl font-black tracking-wide min-[360px]:text-5xl sm:text-7xl">{content.word}</p>
          {content.offline !== null && (
            <p className="rounded-full border-2 border-white px-4 py-1 text-2xl font-bold tracking-wide" data-testid="verdict-flash-offline">
              {content.offline}
            </p>
          )}
          {content.reason !== null && <p className="max-w-md text-2xl leading-snug font-bold break-words">{content.reason}</p>}
          {content.attention && <CheckInNote attention={content.attention} size="flash" />}
        </div>
      )}
    </>
  );
}
