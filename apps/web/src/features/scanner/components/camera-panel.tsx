import { Camera, CameraOff } from 'lucide-react';
import type { RefObject } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { resultCodeText, type ScannerState } from '../scanner-logic.ts';

/** Icon beside the label from 400 px up, above it on narrower phones (the label never wraps). */
const cameraButtonClasses = 'min-w-0 px-2 whitespace-nowrap max-[399px]:flex-col max-[399px]:gap-0.5 max-[399px]:py-1.5';

interface CameraPanelProps {
  videoRef: RefObject<HTMLVideoElement | null>;
  camera: ScannerState['camera'];
  isProcessing: boolean;
  detectedCode: string | null;
  onStart: () => void;
  onStop: () => void;
}

/**
 * The camera preview with 'Start Camera' / 'Stop Camera' (SPEC §2), the 'QR Code Detected!' overlay
 * with the decoded code cut to 20 characters while it is processed (SPEC §4, §9 "last-scanned
 * banner at 20"), and the camera failure text (SPEC §8).
 *
 * Sized for phones down to 320 px wide: the preview is at most a third of the screen height, so the
 * verdict and the manual field below it stay in view; below 400 px the camera buttons put their
 * icon above the label, so neither sticks out. In the dark theme the preview stays black (the dark
 * palette would turn slate-950 light, docs/decisions/036).
 */
export function CameraPanel({ videoRef, camera, isProcessing, detectedCode, onStart, onStop }: CameraPanelProps) {
  const isOn = camera === 'active' || camera === 'starting';
  return (
    <div className="space-y-3">
      <div className="relative aspect-[4/3] max-h-[33dvh] w-full overflow-hidden rounded-2xl bg-slate-950 dark:bg-black">
        <video ref={videoRef} aria-label="Camera preview" className="size-full object-cover" muted playsInline />
        {!isOn && detectedCode === null && (
          <div className="absolute inset-0 flex items-center justify-center text-slate-300 dark:text-slate-600" aria-hidden="true">
            <CameraOff className="size-16" />
          </div>
        )}
        {isProcessing && detectedCode !== null && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-slate-950/85 p-4 text-center text-white dark:bg-black/85 dark:text-slate-950">
            <p className="text-2xl font-bold">QR Code Detected!</p>
            <p className="font-mono text-lg break-all">{resultCodeText(detectedCode)}</p>
          </div>
        )}
      </div>
      {camera === 'failed' && (
        <p role="alert" className="text-lg font-semibold text-red-800">
          Unable to access camera. Please check permissions.
        </p>
      )}
      <div className="grid grid-cols-2 gap-3">
        <Button size="large" className={cameraButtonClasses} onClick={onStart} disabled={isOn || isProcessing}>
          <Camera aria-hidden="true" className="size-6 shrink-0" />
          Start Camera
        </Button>
        <Button size="large" variant="secondary" className={cameraButtonClasses} onClick={onStop} disabled={!isOn}>
          <CameraOff aria-hidden="true" className="size-6 shrink-0" />
          Stop Camera
        </Button>
      </div>
    </div>
  );
}
