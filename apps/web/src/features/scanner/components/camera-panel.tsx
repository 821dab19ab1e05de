import { Camera, CameraOff, Flashlight, FlashlightOff, Settings, SwitchCamera } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { resultCodeText, type ScannerState } from '../scanner-logic.ts';
import { useTranslation } from 'react-i18next';

/**
 * Icon beside the label from 400 px up, on one line. On narrower phones the icon goes above the
 * label, and a label too long for half a 360 px screen (German 'Kamera stoppen') wraps between its
 * words instead of running past the button's edge.
 */
const cameraButtonClasses =
  'min-w-0 px-2 whitespace-nowrap max-[399px]:flex-col max-[399px]:gap-0.5 max-[399px]:py-1.5 max-[399px]:whitespace-normal max-[399px]:text-center max-[399px]:leading-tight';

/** 'Torch' and 'Switch camera' (issue 10 item 6): each shown only when the device has it. */
export interface CameraPanelControls {
  hasTorch: boolean;
  isTorchOn: boolean;
  onToggleTorch: () => void;
  canSwitch: boolean;
  onSwitchCamera: () => void;
}

interface CameraPanelProps {
  /** The camera's picture: the slot a scan source's preview goes in (SEAMS §1), e.g. `<CameraPreview>`. */
  preview: ReactNode;
  camera: ScannerState['camera'];
  isProcessing: boolean;
  detectedCode: string | null;
  onStart: () => void;
  onStop: () => void;
  controls: CameraPanelControls;
  /** Shown under the camera buttons, e.g. the 'Continuous scanning' switch. */
  settings?: ReactNode;
  /** Native app after a refused camera permission: shows 'Open settings' (the app's system settings). */
  onOpenSettings?: () => void;
}

/**
 * The camera preview with 'Start Camera' / 'Stop Camera' (SPEC §2), the 'QR Code Detected!' overlay
 * with the decoded code cut to 20 characters while it is processed (SPEC §4, §9 "last-scanned
 * banner at 20"), and the camera failure text (SPEC §8).
 *
 * The picture comes in through the `preview` slot (the web camera's `<video>`, or the native camera's
 * see-through area; SEAMS §1). Under the buttons: 'Torch' while the running camera has one and
 * 'Switch camera' on devices with more than one camera (issue 10 item 6), then `settings`.
 *
 * Sized for phones down to 320 px wide: the preview is at most a third of the screen height, so the
 * verdict and the manual field below it stay in view; below 400 px the camera buttons put their
 * icon above the label, so neither sticks out. In the dark theme the preview stays black (the dark
 * palette would turn slate-950 light, docs/decisions/036).
 *
 * On the native app the camera renders behind the WebView: the box is marked `data-camera-preview`
 * so it turns transparent while the camera runs (lib/native/use-transparent-webview.ts).
 */
export function CameraPanel({ preview, camera, isProcessing, detectedCode, onStart, onStop, controls, settings, onOpenSettings }: CameraPanelProps) {
  const { t } = useTranslation();
  const isOn = camera === 'active' || camera === 'starting';
  const showTorch = camera === 'active' && controls.hasTorch;
  const showSwitch = camera === 'active' && controls.canSwitch;
  return (
    <div className="space-y-3">
      <div data-camera-preview className="relative aspect-[4/3] max-h-[33dvh] w-full overflow-hidden rounded-2xl bg-slate-950 dark:bg-black">
        {preview}
        {!isOn && detectedCode === null && (
          <div className="absolute inset-0 flex items-center justify-center text-slate-300 dark:text-slate-600" aria-hidden="true">
            <CameraOff className="size-16" />
          </div>
        )}
        {isProcessing && detectedCode !== null && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-slate-950/85 p-4 text-center text-white dark:bg-black/85 dark:text-slate-950">
            <p className="text-2xl font-bold">{t('scanner.qrDetected')}</p>
            <p className="font-mono text-lg break-all">{resultCodeText(detectedCode)}</p>
          </div>
        )}
      </div>
      {camera === 'failed' && (
        <p role="alert" className="text-lg font-semibold text-red-800">
          {t('scanner.cameraFailed')}
        </p>
      )}
      {camera === 'failed' && onOpenSettings && (
        <Button size="large" variant="secondary" className="w-full" onClick={onOpenSettings}>
          <Settings aria-hidden="true" className="size-5 shrink-0" />
          {t('scanner.openSettings')}
        </Button>
      )}
      <div className="grid grid-cols-2 gap-3">
        <Button size="large" className={cameraButtonClasses} onClick={onStart} disabled={isOn || isProcessing}>
          <Camera aria-hidden="true" className="size-6 shrink-0" />
          {t('scanner.startCamera')}
        </Button>
        <Button size="large" variant="secondary" className={cameraButtonClasses} onClick={onStop} disabled={!isOn}>
          <CameraOff aria-hidden="true" className="size-6 shrink-0" />
          {t('scanner.stopCamera')}
        </Button>
      </div>
      {(showTorch || showSwitch) && (
        <div className="grid grid-cols-2 gap-3">
          {showTorch && (
            <Button variant="secondary" className={cameraButtonClasses} aria-pressed={controls.isTorchOn} onClick={controls.onToggleTorch}>
              {controls.isTorchOn ? <FlashlightOff aria-hidden="true" className="size-5 shrink-0" /> : <Flashlight aria-hidden="true" className="size-5 shrink-0" />}
              {t('scanner.torch')}
            </Button>
          )}
          {showSwitch && (
            <Button variant="secondary" className={cameraButtonClasses} onClick={controls.onSwitchCamera}>
              <SwitchCamera aria-hidden="true" className="size-5 shrink-0" />
              {t('scanner.switchCamera')}
            </Button>
          )}
        </div>
      )}
      {settings}
    </div>
  );
}
