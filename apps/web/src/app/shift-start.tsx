/**
 * 'Who is scanning?' (docs/decisions/107, 116): a door device asks whoever picks it up for their
 * name once per shift, before any other signed-in screen. The name starts a shift on the server,
 * whose token the app then scans with, so the scan log says 'Anna (North gate 2)'. Shown by
 * RequireAuth while the device has no shift; loaded on demand with the screens' texts. Without a
 * server, 'Scan now, name later' lets the door scan as the device (device-self.ts `scanWithoutShift`).
 */
import { SHIFT_NAME_MAX_LENGTH, StartShiftRequest } from '@gatecheck/contract/devices';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CenteredCard } from '@/components/centered-card.tsx';
import { FormNotice } from '@/components/form-notice.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { scanWithoutShift, startShift } from '@/features/devices/device-self.ts';
import { ApiError } from '@/lib/api-client.ts';
import { useSession, useSessionStore } from './session-provider.tsx';

export default function ShiftStart() {
  const { t } = useTranslation();
  const { user } = useSession();
  const session = useSessionStore();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: async (shiftName: string) => {
      if (!user?.device) throw new Error('not a door device');
      return startShift({ ...user, device: user.device }, shiftName);
    },
    onSuccess: (next) => session.switchShift(next),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = StartShiftRequest.safeParse({ name });
    setProblem(checked.success ? null : t('shift.nameProblem', { max: SHIFT_NAME_MAX_LENGTH }));
    if (checked.success) start.mutate(checked.data.name);
  };
  const isOffline = start.error instanceof ApiError && start.error.status === 0;
  const failure = start.error ? (isOffline ? t('shift.offline') : t('shift.failed')) : null;
  // No server to start a shift: the door still scans, as the device, and asks again later.
  const scanNow = () => {
    if (user?.device) void scanWithoutShift({ ...user, device: user.device }).then((next) => session.switchShift(next));
  };

  return (
    <CenteredCard title={t('shift.title')} subtitle={user?.device?.name}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <p className="text-base text-slate-800">{t('shift.explanation')}</p>
        <div className="flex flex-col gap-2">
          <Label htmlFor="shift-name">{t('shift.name')}</Label>
          <Input
            id="shift-name"
            autoComplete="name"
            autoFocus
            maxLength={SHIFT_NAME_MAX_LENGTH}
            value={name}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'shift-name-problem' : undefined}
            onChange={(change) => {
              setName(change.target.value);
              setProblem(null);
            }}
          />
          {problem && (
            <p id="shift-name-problem" className="text-base font-semibold text-red-800">
              {problem}
            </p>
          )}
        </div>
        {failure && <FormNotice variant="error" title={failure} />}
        <Button type="submit" size="large" disabled={start.isPending}>
          {start.isPending ? t('shift.starting') : t('shift.start')}
        </Button>
        {isOffline && (
          <Button variant="secondary" onClick={scanNow}>
            {t('shift.scanNow')}
          </Button>
        )}
      </form>
    </CenteredCard>
  );
}
