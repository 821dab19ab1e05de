/**
 * /scanner (SPEC §2): the event and day being scanned, 'Start Scanning' to reveal the camera and the
 * manual field, and the result card of the latest check. Behaviour lives in features/scanner.
 */
import { ScanLine, Square } from 'lucide-react';
import { useCallback } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import type { EventDay, EventItem } from '@/lib/entities.ts';
import { useSelection } from '@/lib/selection.ts';
import { useSwipeBack } from '@/lib/use-swipe-back.ts';
import { CameraPanel } from '@/features/scanner/components/camera-panel.tsx';
import { ManualEntryForm } from '@/features/scanner/components/manual-entry-form.tsx';
import { ResultCard } from '@/features/scanner/components/result-card.tsx';
import { ScannerHeader } from '@/features/scanner/components/scanner-header.tsx';
import { useScanner } from '@/features/scanner/use-scanner.ts';

/** The scanner screen; sends the user to /event-select when no event or day is chosen. */
export function ScannerRoute() {
  const { event, day } = useSelection();
  if (!event || !day) return <Navigate to={paths.eventSelect} replace />;
  return <ScannerScreen event={event} day={day} />;
}

function ScannerScreen({ event, day }: { event: EventItem; day: EventDay }) {
  const navigate = useNavigate();
  const goBack = useCallback(() => void navigate(paths.daySelect), [navigate]);
  useSwipeBack(goBack);
  const scanner = useScanner(event.id, day);
  const { state } = scanner;

  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-xl flex-col gap-5 bg-slate-50 p-4 text-slate-900">
      <ScannerHeader event={event} day={day} onBack={goBack} />

      {/* Right under the header, so the verdict is in view on a phone; always mounted, so screen
          readers announce each new verdict (aria-live). */}
      <div role="status" aria-live="polite" aria-atomic="true">
        {state.latestResult && <ResultCard key={state.latestResult.id} result={state.latestResult} />}
      </div>

      {state.isScanning ? (
        <section aria-label="Scanner" className="space-y-5">
          <CameraPanel
            videoRef={scanner.videoRef}
            camera={state.camera}
            isProcessing={state.isProcessing}
            detectedCode={state.detectedCode}
            onStart={() => void scanner.startCamera()}
            onStop={scanner.stopCamera}
          />
          <ManualEntryForm isProcessing={state.isProcessing} onSubmit={scanner.submitManualCode} />
          <Button size="large" variant="secondary" className="w-full" onClick={scanner.stopScanning}>
            <Square aria-hidden="true" className="size-5" />
            Stop Scanning
          </Button>
        </section>
      ) : (
        <Button size="large" className="min-h-16 w-full text-xl" onClick={scanner.startScanning}>
          <ScanLine aria-hidden="true" className="size-7" />
          Start Scanning
        </Button>
      )}
    </main>
  );
}
