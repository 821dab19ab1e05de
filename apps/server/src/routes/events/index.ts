/**
 * Calls on one event beyond SPEC §7.
 *
 * GET /events/:eventId/days/:day/counts (issue 10 item 4, docs/decisions/033): the scanner header's
 * 'Checked in N / M'. Signed in (the signed-in scope); 404 for an unknown event and, the same
 * answer, for a non-member of the event's organization — as POST /tickets/verify (decision 086).
 *
 * GET /events/:eventId/check-in-lists (docs/decisions/100): the event's check-in lists, for the
 * scanner to offer; any member (requireRole('staff'): 403 never, 404 for a non-member as for an
 * unknown event).
 *
 * POST /events/:eventId/check-in-lists, PATCH and DELETE /events/:eventId/check-in-lists/:checkInListId
 * (docs/decisions/111): keeping an event's lists with their re-entry, capacity and daily checkout;
 * admin or higher. POST /events/:eventId/info-scan: a supervisor's scan that admits nobody.
 *
 * Supervisor tools on an event (issue 11), every route behind `requireRole('supervisor')`:
 * GET /events/{eventId}/attendees (search), POST .../attendees/{ticketId}/check-in (manual
 * check-in, the same rule as verify), POST .../attendees/{ticketId}/undo-check-in (with a reason;
 * 409 when not checked in), GET /events/{eventId}/scan-log (paginated).
 */
import {
  apiPaths,
  AttendeeSearchQuery,
  AttendeeSearchResponse,
  CheckInCounts,
  CheckInCountsParams,
  CheckInCountsQuery,
  CheckInLists,
  InfoScanRequest,
  InfoScanResponse,
  DoorList,
  DoorListQuery,
  EventDayParams,
  EventParams,
  EventSigningKeys,
  EventTicketParams,
  ManualCheckInRequest,
  ManualCheckInResponse,
  OfflineConflictList,
  OfflineConflictsQuery,
  OfflineScanBatch,
  OfflineScanBatchResponse,
  ScanLogPage,
  ScanLogQuery,
  UndoCheckInRequest,
  UndoCheckInResponse,
} from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { searchAttendees } from '../../services/attendee-search.ts';
import { countCheckIns } from '../../services/check-in-counts.ts';
import { listCheckInLists, resolveCheckInList, resolveUploadList } from '../../services/check-in-lists.ts';
import { infoScan } from '../../services/check-ins/info-scan.ts';
import { manualCheckIn, undoCheckIn } from '../../services/check-ins/manual.ts';
import { listLeftAt, timesAtListLeft } from '../../services/devices.ts';
import { readDoorList } from '../../services/door-list.ts';
import { listConflicts, recordOfflineScans } from '../../services/offline-scans.ts';
import { listSigningKeys } from '../../services/signing-keys.ts';
import { readScanLog } from '../../services/scan-log.ts';
import { eventOf, requireRole } from '../require-role.ts';

/** Largest outbox upload accepted, in bytes (512 KiB); bigger bodies get 413. */
export const OFFLINE_BATCH_BODY_LIMIT_BYTES = 512 * 1024;

const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    apiPaths.checkInCounts,
    {
      schema: {
        operationId: 'getCheckInCounts',
        params: CheckInCountsParams,
        querystring: CheckInCountsQuery,
        response: { 200: CheckInCounts, ...ruleErrors('bad_request', 'not_found') },
      },
    },
    async (request) => {
      const { userId, device } = signedInUser(request);
      return countCheckIns(app.db, { userId, deviceEventId: device?.eventId }, request.params.eventId, { day: request.params.day, checkInListId: request.query.checkInListId }, app.clock());
    },
  );

  const supervisorOnly = requireRole('supervisor');

  app.get(
    apiPaths.attendeeSearch,
    {
      preHandler: supervisorOnly,
      schema: {
        operationId: 'searchAttendees',
        params: EventParams,
        querystring: AttendeeSearchQuery,
        response: { 200: AttendeeSearchResponse, ...ruleErrors('bad_request', 'forbidden', 'not_found') },
      },
    },
    async (request) => searchAttendees(app.db, eventOf(request), request.query.q, { day: request.query.day, checkInListId: request.query.checkInListId }, app.clock()),
  );

  app.post(
    apiPaths.manualCheckIn,
    {
      preHandler: supervisorOnly,
      schema: {
        operationId: 'manualCheckIn',
        params: EventTicketParams,
        body: ManualCheckInRequest,
        response: { 200: ManualCheckInResponse, ...ruleErrors('bad_request', 'forbidden', 'not_found') },
      },
    },
    async (request) => {
      const event = eventOf(request);
      const verdict = await manualCheckIn(app.db, { userId: signedInUser(request).userId }, event, { ticketId: request.params.ticketId, ...request.body }, app.clock());
      app.metrics.countVerdict({ source: 'manual', eventId: event.id, day: request.body.day, isValid: verdict.isValid, reason: verdict.isValid ? undefined : verdict.reason });
      return verdict;
    },
  );

  app.post(
    apiPaths.undoCheckIn,
    {
      preHandler: supervisorOnly,
      schema: {
        operationId: 'undoCheckIn',
        params: EventTicketParams,
        body: UndoCheckInRequest,
        response: { 200: UndoCheckInResponse, ...ruleErrors('bad_request', 'forbidden', 'not_found', 'conflict', 'check_in_changed') },
      },
    },
    async (request) => {
      const undone = await undoCheckIn(app.db, { userId: signedInUser(request).userId }, eventOf(request), {
        ticketId: request.params.ticketId,
        ...request.body,
      });
      return { ...undone, checkedInAt: undone.checkedInAt.toISOString(), exitedAt: undone.exitedAt?.toISOString() ?? null, undoneAt: undone.undoneAt.toISOString() };
    },
  );

  app.get(
    apiPaths.scanLog,
    {
      preHandler: supervisorOnly,
      schema: {
        operationId: 'readScanLog',
        params: EventParams,
        querystring: ScanLogQuery,
        response: { 200: ScanLogPage, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request) => {
      const { day, verdict, limit, cursor } = request.query;
      return readScanLog(app.db, eventOf(request).id, { day, verdict }, { limit, cursor });
    },
  );

  const anyMember = requireRole('staff');

  app.get(
    apiPaths.checkInLists,
    {
      preHandler: anyMember,
      schema: {
        operationId: 'listCheckInLists',
        params: EventParams,
        response: { 200: CheckInLists, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request) => {
      const event = eventOf(request);
      const lists = await listCheckInLists(app.db, event.id);
      // A door device enrolled for one list sees that list only, so the app asks for no other (docs/decisions/116).
      const deviceList = signedInUser(request).device?.checkInListId;
      return { eventId: event.id, lists: deviceList ? lists.filter((list) => list.id === deviceList) : lists };
    },
  );

  app.post(
    apiPaths.infoScan,
    {
      preHandler: supervisorOnly,
      schema: {
        operationId: 'infoScan',
        params: EventParams,
        body: InfoScanRequest,
        response: { 200: InfoScanResponse, ...ruleErrors('bad_request', 'forbidden', 'not_found') },
      },
    },
    async (request) => infoScan(app.db, { userId: signedInUser(request).userId }, eventOf(request), request.body, app.clock()),
  );

  app.get(
    apiPaths.doorList,
    {
      preHandler: anyMember,
      schema: {
        operationId: 'getDoorList',
        params: EventDayParams,
        querystring: DoorListQuery,
        response: { 200: DoorList, ...ruleErrors('bad_request', 'forbidden', 'not_found') },
      },
    },
    async (request) => readDoorList(app.db, eventOf(request), { day: request.params.day, ...request.query }, app.clock()),
  );

  app.post(
    apiPaths.offlineScans,
    {
      // A door device may also send an event it was moved away from the scans it made there (docs/decisions/139).
      preHandler: requireRole('staff', { opensEventDeviceLeft: true }),
      // 500 items of up to ~1 KiB each (a 512-character code, the ids, the time): more than the
      // app-wide 64 KiB, still bounded.
      bodyLimit: OFFLINE_BATCH_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'uploadOfflineScans',
        params: EventDayParams,
        body: OfflineScanBatch,
        response: { 200: OfflineScanBatchResponse, ...ruleErrors('bad_request', 'forbidden', 'not_found') },
      },
    },
    async (request) => {
      const event = eventOf(request);
      const { userId, sessionId, device } = signedInUser(request);
      // Naming no list at an event the device left: the list it was at there (docs/decisions/139).
      const named = request.body.checkInListId ?? (await listLeftAt(app.db, device, event.id));
      // Another event's list: a 400 for the batch before any item is recorded. A list the event had
      // and deleted since: its scans land at the lists left (docs/decisions/153).
      const { deleted, ...checkInList } = await resolveUploadList(app.db, event.id, named);
      // A device's stays are asked of the list named, a deleted one too: they outlive it (decision 162).
      const stays = await timesAtListLeft(app.db, device, event.id, deleted?.id ?? checkInList.list.id);
      const uploader = { userId, sessionId, acceptsScansBefore: device?.revokedAt ?? undefined, acceptsScansWhileAt: stays, hasLeftEvent: device !== null && device.eventId !== event.id };
      return recordOfflineScans(app.db, uploader, event, { day: request.params.day, checkInList, deleted }, request.body.scans, app.clock());
    },
  );

  app.get(
    apiPaths.offlineConflicts,
    {
      preHandler: anyMember,
      schema: {
        operationId: 'listOfflineConflicts',
        params: EventDayParams,
        querystring: OfflineConflictsQuery,
        response: { 200: OfflineConflictList, ...ruleErrors('bad_request', 'forbidden', 'not_found') },
      },
    },
    async (request) => {
      const event = eventOf(request);
      // A list of the event only (400 otherwise); none named: every list's conflicts, as before lists.
      const checkInList = request.query.checkInListId === undefined ? undefined : await resolveCheckInList(app.db, event.id, request.query.checkInListId);
      return { conflicts: await listConflicts(app.db, event.id, request.params.day, checkInList?.list.id) };
    },
  );

  app.get(
    apiPaths.signingKeys,
    {
      preHandler: anyMember,
      schema: {
        operationId: 'listSigningKeys',
        params: EventParams,
        response: { 200: EventSigningKeys, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request) => {
      const event = eventOf(request);
      return { eventId: event.id, keys: await listSigningKeys(app.db, event.id) };
    },
  );
};

export default eventsRoutes;
