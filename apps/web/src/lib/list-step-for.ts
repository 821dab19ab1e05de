/**
 * Where the check-in list step on /day-select leads once a list is chosen (docs/decisions/109, 151):
 * /scanner, or /supervisor when the step was asked for the supervisor tools (their link on a first
 * visit to an event with several lists, or /supervisor finding its list deleted or still to choose).
 * Kept in the history entry's state as `listStepFor`, beside use-back's `cameFrom`, so a reload of
 * the list step keeps it, and a step taken for the scanner on the same entry drops it.
 */
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { paths } from '@/config/paths.ts';

const ListStepState = z.object({ listStepFor: z.literal(paths.supervisor) });
/** Any history state's fields (use-back's `cameFrom` among them), kept when `listStepFor` changes. */
const HistoryState = z.record(z.string(), z.unknown());

type ListStepTarget = typeof paths.scanner | typeof paths.supervisor;

/** The history state that makes the list step lead to /supervisor: for `<Navigate state>`. */
export const listStepForSupervisor = { listStepFor: paths.supervisor } as const;

/**
 * For the /day-select screen: `listStepFor`, where a list chosen at the list step leads (/scanner
 * unless this entry says /supervisor), and `setListStepFor(to)`, which rewrites this entry's state in
 * place (a replace, keeping its other fields) to lead to `to`.
 */
export function useListStepFor(): { listStepFor: ListStepTarget; setListStepFor: (to: ListStepTarget) => Promise<void> } {
  const navigate = useNavigate();
  const { pathname, state } = useLocation();
  const listStepFor = z.safeParse(ListStepState, state).success ? paths.supervisor : paths.scanner;
  const setListStepFor = useCallback(
    async (to: ListStepTarget) => {
      if (to === listStepFor) return;
      const fields = z.safeParse(HistoryState, state);
      const { listStepFor: _previous, ...kept } = fields.success ? fields.data : {};
      await navigate(pathname, { replace: true, state: to === paths.supervisor ? { ...kept, listStepFor: to } : kept });
    },
    [navigate, pathname, state, listStepFor],
  );
  return { listStepFor, setListStepFor };
}
