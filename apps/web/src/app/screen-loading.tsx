/**
 * The wait for a lazy screen's code (the router's `<Suspense>`, docs/decisions/075): shown when
 * nothing keeps the screen left on show while the next one loads (the first screen of a start, or a
 * navigation outside a transition), so a slow network never shows a blank page.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FullScreenMessage } from '@/components/full-screen-message.tsx';
import { SCREEN_LOADING_DELAY_MS } from '@/config/constants.ts';

/** Nothing for `SCREEN_LOADING_DELAY_MS` (250 ms), then the guard's full-screen 'Loading...' (SPEC §2), until unmounted. */
export function ScreenLoading() {
  const { t } = useTranslation();
  const [isShown, setIsShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setIsShown(true), SCREEN_LOADING_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return isShown ? <FullScreenMessage>{t('common.loading')}</FullScreenMessage> : null;
}
