import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from '@/components/language-toggle.tsx';
import { ThemeToggle } from '@/components/theme-toggle.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Tooltip } from '@/components/ui/tooltip.tsx';

export interface PageShellProps {
  /** The screen's heading (one h1 per screen). */
  title: string;
  /** A line under the heading. */
  subtitle?: ReactNode;
  /** Shows a 'Back' button calling this. */
  onBack?: () => void;
  /** Extra header controls, for example the logout button. */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * The frame of a flow screen: a header with back button, heading and actions, then the content, and
 * a footer with the theme and language choices (issue 10 items 8 and 9).
 */
export function PageShell({ title, subtitle, onBack, actions, children }: PageShellProps) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-2xl flex-col">
      <header className="flex items-center gap-2 border-b-2 border-slate-200 bg-white px-3 pt-[calc(var(--screen-top)+0.75rem)] pb-3">
        {onBack && (
          <Tooltip label={t('common.back')}>
            <Button variant="ghost" size="icon" onClick={onBack} aria-label={t('common.back')}>
              <ArrowLeft aria-hidden="true" className="size-6" />
            </Button>
          </Tooltip>
        )}
        <div className="ml-auto flex items-center gap-2">{actions}</div>
      </header>
      <main className="flex flex-1 flex-col gap-4 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
          {subtitle && <div className="mt-1 text-lg text-slate-700">{subtitle}</div>}
        </div>
        {children}
      </main>
      <footer className="flex flex-col gap-2 border-t-2 border-slate-200 px-4 pt-3 pb-[calc(var(--safe-bottom)+0.75rem)]">
        <ThemeToggle />
        <LanguageToggle />
      </footer>
    </div>
  );
}
