import { DoorClosed, DoorOpen, Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SegmentedChoice, type SegmentedOption } from '@/components/ui/segmented-choice.tsx';
import type { ScanMode } from '@/lib/entities.ts';

/**
 * The scanner's Entry / Exit switch, with 'Info' for supervisors (docs/decisions/113). Exit is offered
 * only at a check-in list that allows re-entry (`canExit`), Info only to supervisors and admins
 * (`canInfo`); with neither, nothing is shown and every scan is an entry, as SPEC §7.
 */
export function ScanModeSwitch({ mode, canExit, canInfo, onChange }: { mode: ScanMode; canExit: boolean; canInfo: boolean; onChange: (mode: ScanMode) => void }) {
  const { t } = useTranslation();
  if (!canExit && !canInfo) return null;
  const options: SegmentedOption<ScanMode>[] = [
    { value: 'entry', label: t('doors.entry'), icon: DoorOpen },
    ...(canExit ? [{ value: 'exit' as const, label: t('doors.exit'), icon: DoorClosed }] : []),
    ...(canInfo ? [{ value: 'info' as const, label: t('doors.info'), icon: Info }] : []),
  ];
  return <SegmentedChoice legend={t('doors.scanMode')} options={options} value={mode} onChange={onChange} />;
}

/**
 * The mode the scanner scans in: the stored one when this list and role still offer it, else entry
 * (a list that no longer allows re-entry, a supervisor who is now staff).
 */
export function effectiveScanMode(stored: 'exit' | 'info' | undefined, canExit: boolean, canInfo: boolean): ScanMode {
  if (stored === 'exit' && canExit) return 'exit';
  if (stored === 'info' && canInfo) return 'info';
  return 'entry';
}
