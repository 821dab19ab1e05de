import { Camera, CameraOff } from 'lucide-react';
import type { RefObject } from 'react';
import { Button } from '@/components/ui/button.tsx';
import type { ScannerState } from '../scanner-logic.ts';

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
 * with the decoded code while it is processed (SPEC §4), and the camera failure text (SPEC §8).
 */
export function CameraPanel({ videoRef, camera, isProcessing, detectedCode, onStart, onStop }: CameraPanelProps) {
  const isOn = camera === 'active' || camera === 'starting';
  return (
    <div className="space-y-3">
      <div className="relative aspect-[4/3] w-full overflow-hidden rounded-2xl bg-slate-950">
        <video ref={videoRef} aria-label="Camera preview" className="size-full object-cover" muted playsInline />
        {!isOn && detectedCode === null && (
          <div className="absolute inset-0 flex items-center justify-center text-slate-300" aria-hidden="true">
            <CameraOff className="size-16" />
          </div>
        )}
        {isProcessing && detectedCode !== null && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-slate-950/85 p-4 text-center text-white">
            <p className="text-2xl font-bold">QR Code Detected!</p>
            <p className="font-mono text-lg break-all">{detectedCode}</p>
          </div>
        )}
      </div>
      {camera === 'failed' && (
        <p role="alert" className="text-lg font-semibold text-red-800">
          Unable to access camera. Please check permissions.
        </p>
      )}
      <div className="grid grid-cols-2 gap-3">
        <Button size="large" className="px-3 whitespace-nowrap" onClick={onStart} disabled={isOn || isProcessing}>
          <Camera aria-hidden="true" className="size-6 shrink-0" />
          Start Camera
        </Button>
        <Button size="large" variant="secondary" className="px-3 whitespace-nowrap" onClick={onStop} disabled={!isOn}>
          <CameraOff aria-hidden="true" className="size-6 shrink-0" />
          Stop Camera
        </Button>
      </div>
    </div>
  );
}
