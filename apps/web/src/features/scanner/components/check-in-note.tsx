import type { CheckInAttention } from '@gatecheck/contract/check-in-notes';
import { MessageSquareText, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn.ts';
import { checkInNoteContent } from '../verdict-flash-logic.ts';

/**
 * A ticket's check-in note (docs/decisions/102), large: 'ATTENTION' with a warning icon when the
 * ticket or its type asks staff to look up, else 'Note', then the note itself, a paragraph a line. In
 * the result card (`size="card"`) and on the full-screen flash (`size="flash"`). Dark text on a
 * light panel with a thick amber border (light panel with dark text turned over in the dark
 * theme, decision 036), so it reads in sun and against the verdict's colour alike.
 */
export function CheckInNote({ attention, size }: { attention: CheckInAttention; size: 'card' | 'flash' }) {
  const { t } = useTranslation();
  const content = checkInNoteContent(attention);
  const Icon = attention.requiresAttention ? TriangleAlert : MessageSquareText;
  const isFlash = size === 'flash';
  const label = (
    <>
      <Icon aria-hidden="true" className={cn('shrink-0', isFlash ? 'size-8' : 'size-5')} strokeWidth={2.75} />
      {attention.requiresAttention ? t('scanner.attention') : t('scanner.checkInNote')}
    </>
  );
  const labelClass = cn('flex items-center gap-2 font-black tracking-wide', isFlash ? 'text-2xl' : 'text-base', attention.requiresAttention ? 'text-amber-900' : 'text-slate-800');
  const lines = content.text.split('\n');
  return (
    <div
      data-testid={isFlash ? 'verdict-flash-note' : 'result-card-note'}
      className={cn(
        'min-w-0 rounded-xl border-amber-600 bg-white text-left text-slate-950',
        isFlash ? 'w-full max-w-md border-8 p-4' : 'mt-1.5 border-4 px-3 py-0.5',
        !attention.requiresAttention && 'border-slate-500',
      )}
    >
      {isFlash && <p className={labelClass}>{label}</p>}
      {/* One line of the note a paragraph, ruled apart: the ticket's own note and its type's read as two.
          On the card the label leads the first line (beside a short one, above a longer one) and the
          paddings are tight, so the card keeps to the verdict slot's height (docs/decisions/113). */}
      <div className={cn('divide-y-2 divide-slate-300 leading-snug font-bold break-words', isFlash ? 'mt-1 text-3xl min-[360px]:text-4xl' : 'text-xl')}>
        {lines.map((line, index) => (
          <p key={index} className={cn(index > 0 && (isFlash ? 'pt-2' : 'pt-1'), isFlash ? 'pb-2 last:pb-0' : 'pb-1 last:pb-0', !isFlash && index === 0 && 'flex flex-wrap items-center gap-x-2')}>
            {!isFlash && index === 0 && <span className={labelClass}>{label}</span>}
            {line}
          </p>
        ))}
      </div>
    </div>
  );
}
