/**
 * Ticket verification, POST tickets/verify (SPEC §7), as a TanStack mutation. The wire verdict is
 * mapped once, here, to the client's `Verdict`; every verdict goes into the day's recent scans and
 * refreshes the day's check-in data (lib/check-ins, docs/decisions/097).
 */
import { apiPaths } from '@gatecheck/contract/paths';
import { VerifyTicketRequest, VerifyTicketResponse } from '@gatecheck/contract/tickets';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RETRY_BASE_DELAY_MS } from '@/config/constants.ts';
import { ApiError, apiRequest } from '@/lib/api-client.ts';
import { recordOccupancy, refreshCheckInDay } from '@/lib/check-ins/check-in-queries.ts';
import { recordVerdict } from './recent-scans-query.ts';
import type { Verdict } from './scanner-logic.ts';

/** SPEC §5: verification is refused when no selected event id is stored. */
export const NO_SELECTED_EVENT_MESSAGE = 'No selected event found.';

/**
 * A network failure (no answer at all) is retried this many times with the same `scanId`, which the
 * server uses to make the retry idempotent; an HTTP error answer is never retried.
 */
const VERIFY_NETWORK_RETRIES = 1;

/** One ticket check: the selected event's id (null/empty when none is stored), day number, code. */
export interface TicketCheck {
  eventId: string | null;
  day: number;
  qrCode: string;
  /** The check-in list scanned at (docs/decisions/109); absent: the event's first list. */
  checkInListId?: string | undefined;
  /** A UUID per check (crypto.randomUUID()), reused when the same check is retried. */
  scanId: string;
  /** 'exit' at a list that allows re-entry (docs/decisions/111, 113); absent: an entry, as SPEC §7. */
  direction?: 'exit' | undefined;
  /** Aborts the request (issue 12: a verify with no answer in 3 s is decided on the device instead). */
  signal?: AbortSignal;
}

/** POST tickets/verify for `check`: the wire verdict, as `verifyTicket` but not yet mapped. */
async function postVerify(check: TicketCheck, signal?: AbortSignal): Promise<VerifyTicketResponse> {
  if (!check.eventId) throw new Error(NO_SELECTED_EVENT_MESSAGE);
  const body: VerifyTicketRequest = {
    eventId: check.eventId,
    qrCode: check.qrCode,
    day: check.day,
    scanId: check.scanId,
    ...(check.checkInListId ? { checkInListId: check.checkInListId } : {}),
    ...(check.direction ? { direction: check.direction } : {}),
  };
  return apiRequest(apiPaths.verifyTicket, { method: 'POST', body, schema: VerifyTicketResponse, signal });
}

/**
 * Sends one ticket check and returns the verdict. A denial is a verdict, not an error.
 *
 * @throws {Error} 'No selected event found.' when `eventId` is null or empty (no request is sent).
 * @throws {ApiError} on a network failure, a non-2xx answer or an unexpected body.
 */
export async function verifyTicket(check: TicketCheck, signal?: AbortSignal): Promise<Verdict> {
  return toVerdict(await postVerify(check, signal));
}

/**
 * The client's `Verdict` for a wire verdict (SPEC §7 verify, and issue 11's manual check-in, which
 * answers the same shape).
 */
export function toVerdict(response: VerifyTicketResponse): Verdict {
  const attention = attentionOf(response);
  if (response.isValid) {
    const { eventName, holderName, ticketType } = response;
    return { isValid: true, details: { eventName, holderName, ticketType }, ...(response.direction === 'exit' ? { isExit: true } : {}), ...attention };
  }
  // The English `message` is not kept: the screen words the reason in the active language.
  const { reason, checkedInAt, checkedInBy, dayDenial, listDenial, capacityDenial } = response;
  return {
    isValid: false,
    denial: { reason, checkedInAt, checkedInBy, dayDenial, ...(listDenial ? { listDenial } : {}), ...(capacityDenial ? { capacityDenial } : {}) },
    ...attention,
  };
}

/** The verdict's check-in note and flag (docs/decisions/102) as the client keeps them, when it carries either. */
function attentionOf(response: VerifyTicketResponse): Pick<Verdict, 'attention'> {
  const note = response.checkInNote?.trim() ?? '';
  const requiresAttention = response.requiresAttention === true;
  return note !== '' || requiresAttention ? { attention: { note, requiresAttention } } : {};
}

/** True when `error` means the request got no answer (retrying with the same scanId is safe). */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

/**
 * True when the server answered that it cannot decide now: 503 (its database does not answer or
 * its disk is full, with `Retry-After`; docs/decisions/103) or a proxy's 502/504 for a server that
 * did not answer. The scanner decides on the device as for no answer: nothing was recorded, or (a
 * 503 whose write the database did not confirm in time, decision 134) the check-in may have been,
 * and the queued upload under the same scanId then answers `duplicate`.
 */
export function isServerUnavailable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 502 || error.status === 503 || error.status === 504);
}

/**
 * The verify mutation: `mutateAsync(check)` resolves to the verdict (see `verifyTicket`), after the
 * verdict was put first in the day's recent scans (id = the check's `scanId`, time = now) and the
 * day's check-in data (counts, scan log, search ...) was marked for a refetch: the server has
 * recorded the scan, whatever the verdict.
 */
export function useVerifyTicketMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (check: TicketCheck) => {
      const response = await postVerify(check, check.signal);
      // The list's guests inside after this verdict (decision 120): the header shows it at once,
      // before the day's refresh below reads the counts again.
      recordOccupancy(queryClient, check, response);
      return toVerdict(response);
    },
    onSuccess: (verdict, check) => {
      // Given up on (decided on the device meanwhile): the offline verdict stands in the list, but
      // the server has recorded this scan all the same.
      if (!check.signal?.aborted) {
        recordVerdict(queryClient, { eventId: check.eventId, day: check.day, checkInListId: check.checkInListId }, { id: check.scanId, ticketId: check.qrCode, timestamp: new Date().toISOString(), ...verdict });
      }
      void refreshCheckInDay(queryClient, check);
    },
    retry: (failureCount, error) => isNetworkFailure(error) && failureCount < VERIFY_NETWORK_RETRIES,
    retryDelay: RETRY_BASE_DELAY_MS,
  });
}
