/**
 * GET /events/:eventId/days/:day/counts (issue 10 item 4, docs/decisions/033): the scanner header's
 * 'Checked in N / M'. Signed in (the signed-in scope); 403 for a non-member of the event's
 * organization, 404 for an unknown event — as POST /tickets/verify.
 */
import { apiPaths, CheckInCounts, CheckInCountsParams } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { countCheckIns } from '../../services/check-in-counts.ts';

const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    apiPaths.checkInCounts,
    { schema: { operationId: 'getCheckInCounts', params: CheckInCountsParams, response: { 200: CheckInCounts, ...ruleErrors('forbidden', 'not_found') } } },
    async (request) => countCheckIns(app.db, signedInUser(request).userId, request.params.eventId, request.params.day),
  );
};

export default eventsRoutes;
