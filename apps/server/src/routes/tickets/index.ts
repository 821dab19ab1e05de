/**
 * POST /tickets/verify (SPEC §7): one scan → one verdict. A denial is a 200 with `isValid: false`;
 * 403 for a non-member of the event's organization, 404 for an unknown event.
 */
import { ApiErrorBody, apiPaths, VerifyTicketRequest, VerifyTicketResponse } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { verifyTicket } from '../../services/check-in.ts';

const ticketsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    apiPaths.verifyTicket,
    { schema: { body: VerifyTicketRequest, response: { 200: VerifyTicketResponse, 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody } } },
    async (request) => {
      const session = await app.authenticate(request);
      return verifyTicket(app.db, { userId: session.userId }, request.body);
    },
  );
};

export default ticketsRoutes;
