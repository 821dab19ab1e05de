/**
 * Shown instead of a screen that failed to render (a defect, not a server answer: those are handled
 * by each screen). Keeps staff one tap away from a working app instead of a blank page.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';

export function RouteError() {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 pt-[var(--screen-top)] pb-[var(--safe-bottom)] text-center">
      <h1 className="text-3xl font-bold text-slate-900">{t('routeError.title')}</h1>
      <p className="text-lg text-slate-800">{t('routeError.description')}</p>
      <Link
        to={paths.home}
        reloadDocument
        className="min-h-12 rounded-xl px-4 py-3 text-lg font-semibold text-blue-800 underline underline-offset-4 focus-visible:outline-4 focus-visible:outline-blue-600"
      >
        {t('notFound.home')}
      </Link>
    </main>
  );
}
