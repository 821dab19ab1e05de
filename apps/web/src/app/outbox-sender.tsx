/**
 * Sends the offline outbox on every signed-in screen but the scanner (features/scanner/offline/
 * use-outbox-sender.ts); loaded lazily by RequireAuth, so the first load does not carry IndexedDB
 * code (issue 13). Renders nothing.
 */
import { useOutboxSender } from '@/features/scanner/offline/use-outbox-sender.ts';
import { useSession } from './session-provider.tsx';

export default function OutboxSender() {
  const { user } = useSession();
  useOutboxSender(user?.id ?? null);
  return null;
}
