/**
 * The strip of components/api-version-notice.tsx, in a chunk of its own: it shows only when the
 * server speaks a contract this app does not (docs/decisions/094), so the sign-in screen's first
 * load does without it (docs/decisions/098).
 */
import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ApiCompatibility } from '@gatecheck/contract/api-version';

/** 'This app is older than the Gatecheck server…' or '…the server is older than this app…', in words. */
export default function ApiVersionStrip({ compatibility }: { compatibility: Exclude<ApiCompatibility, 'ok'> }) {
  const { t } = useTranslation();
  return (
    <p role="alert" data-testid="api-version-notice" data-covers-status-bar className="flex items-start justify-center gap-1.5 border-b-2 border-red-600 bg-red-50 px-3 pt-[calc(var(--safe-top)+0.25rem)] pb-1 text-sm font-bold text-red-950">
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {compatibility === 'app_too_old' ? t('apiVersion.appTooOld') : t('apiVersion.serverTooOld')}
    </p>
  );
}
