import type { ReactNode } from 'react';
import { cn } from '@/lib/cn.ts';
import { useTranslation } from 'react-i18next';

/**
 * An on/off switch (WAI-ARIA `role="switch"`): a 48 px tall touch target whose name is `children`,
 * with the state shown by the knob's place and by the words On / Off (not by colour alone).
 */
export function Switch({ isOn, onChange, children }: { isOn: boolean; onChange: (isOn: boolean) => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      role="switch"
      aria-checked={isOn}
      onClick={() => onChange(!isOn)}
      className="flex min-h-12 w-full items-center justify-between gap-3 rounded-xl border-2 border-slate-300 bg-white px-3 text-left text-base font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
    >
      <span className="min-w-0">{children}</span>
      <span className="flex shrink-0 items-center gap-2">
        <span aria-hidden="true" className="w-7 text-sm text-slate-800">
          {isOn ? t('common.on') : t('common.off')}
        </span>
        <span aria-hidden="true" className={cn('flex h-7 w-12 items-center rounded-full border-2 p-0.5', isOn ? 'border-blue-700 bg-blue-700' : 'border-slate-500 bg-slate-200')}>
          <span className={cn('size-5 rounded-full shadow', isOn ? 'translate-x-5 bg-white' : 'bg-slate-600')} />
        </span>
      </span>
    </button>
  );
}
