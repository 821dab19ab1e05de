/**
 * A plain strip above every screen when the server speaks a contract this app does not
 * (lib/api-compatibility.ts, docs/decisions/094): 'This app is older than the Gatecheck server…' or
 * '…the server is older than this app…'. It says what to do, rather than leaving staff with
 * 'Verification Error' on every scan after a server upgrade. The strip itself
 * (./api-version-strip.tsx) loads when it is needed, never on the sign-in screen's first load
 * (docs/decisions/098); the server has just answered then, so its chunk arrives at once.
 */
import { lazy, Suspense } from 'react';
import { useApiCompatibility } from '@/lib/api-compatibility.ts';

const ApiVersionStrip = lazy(() => import('./api-version-strip.tsx'));

/** The strip, above every screen, while the last answer's server does not fit this app; nothing while it does. */
export function ApiVersionNotice() {
  const compatibility = useApiCompatibility();
  if (compatibility === 'ok') return null;
  return (
    <Suspense fallback={null}>
      <ApiVersionStrip compatibility={compatibility} />
    </Suspense>
  );
}
