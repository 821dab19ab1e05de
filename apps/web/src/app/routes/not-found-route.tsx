/** Any unknown path (SPEC §2 404). */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';

export function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 pt-[var(--screen-top)] pb-[var(--safe-bottom)] text-center">
      <h1 className="text-5xl font-bold text-slate-900">404</h1>
      <p className="text-xl text-slate-800">{t('notFound.message')}</p>
      <Link
        to={paths.home}
        className="min-h-12 rounded-xl px-4 py-3 text-lg font-semibold text-blue-800 underline underline-offset-4 focus-visible:outline-4 focus-visible:outline-blue-600"
      >
        {t('notFound.home')}
      </Link>
    </main>
  );
}
