/**
 * A plain strip above every screen when the server speaks a contract this app does not
 * (lib/api-compatibility.ts, docs/decisions/094): 'This app is older than the Gatecheck server…' or
 * '…the server is older than this app…'. It says what to do, rather than leaving staff with
 * 'Verification Error' on every scan after a server upgrade.
 */
import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useApiCompatibility } from '@/lib/api-compatibility.ts';

/** The strip, above every screen, while the last answer's server does not fit this app; nothing while it does. */
export function ApiVersionNotice() {
  const { t } = useTranslation();
  const compatibility = useApiCompatibility();
  if (compatibility === 'ok') return null;
  return (
    <p role="alert" data-testid="api-version-notice" data-covers-status-bar className="flex items-start justify-center gap-1.5 border-b-2 border-red-600 bg-red-50 px-3 pt-[calc(var(--safe-top)+0.25rem)] pb-1 text-sm font-bold text-red-950">
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {compatibility === 'app_too_old' ? t('apiVersion.appTooOld') : t('apiVersion.serverTooOld')}
    </p>
  );
}
