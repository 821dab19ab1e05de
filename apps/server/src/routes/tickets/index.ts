/**
 * POST /tickets/verify (SPEC §7): one scan → one verdict. A denial is a 200 with `isValid: false`;
 * 403 for a non-member of the event's organization, 404 for an unknown event.
 */
import { apiPaths, VerifyTicketRequest, VerifyTicketResponse } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { verifyTicket } from '../../services/check-in.ts';

const ticketsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    apiPaths.verifyTicket,
    {
      schema: {
        operationId: 'verifyTicket',
        body: VerifyTicketRequest,
        response: { 200: VerifyTicketResponse, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request) => {
      const verdict = await verifyTicket(app.db, { userId: signedInUser(request).userId }, request.body, app.clock());
      app.metrics.countVerdict({ source: 'scan', eventId: request.body.eventId, day: request.body.day, isValid: verdict.isValid, reason: verdict.isValid ? undefined : verdict.reason });
      return verdict;
    },
  );
};

export default ticketsRoutes;
