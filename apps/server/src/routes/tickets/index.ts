/**
 * POST /tickets/verify (SPEC §7): one scan → one verdict. A denial is a 200 with `isValid: false`;
 * 404 for an unknown event and, alike, for an event of an organization the caller is not a member
 * of (docs/decisions/086). Those refusals count per user, `RATE_LIMIT_IP_MAX` per window, then 429:
 * a stranger's requests cannot flood the server's log of access refusals.
 */
import { apiPaths, VerifyTicketRequest, VerifyTicketResponse } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { verifyTicket } from '../../services/check-ins/verify.ts';
import { ServiceError } from '../../services/errors.ts';
import { databaseLimiters, RequestLimit } from '../../services/rate-limits.ts';

/**
 * How long a verify's database statements may take in all, from the request's arrival (ms). With
 * the settle grace of a write already sent (VERIFY_WRITE_SETTLE_MS, 250 ms, docs/decisions/134) the
 * answer leaves by 2.5 s: inside the phone's 3 s offline cut-over (docs/decisions/052), with half a
 * second left for the network.
 */
export const VERIFY_DATABASE_DEADLINE_MS = 2_250;

const ticketsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { windowMs, ipMax } = app.config.rateLimit;
  const refusals = new RequestLimit({ keyPrefix: 'refused-verify-user', points: ipMax, durationSeconds: Math.ceil(windowMs / 1000) }, databaseLimiters(app.db));
  app.post(
    apiPaths.verifyTicket,
    {
      schema: {
        operationId: 'verifyTicket',
        body: VerifyTicketRequest,
        response: { 200: VerifyTicketResponse, ...ruleErrors('bad_request', 'not_found') },
      },
      // Answered (503 at worst) before the phone gives up and decides offline (docs/decisions/103).
      config: { databaseDeadlineMs: VERIFY_DATABASE_DEADLINE_MS },
    },
    async (request) => {
      const { userId, device } = signedInUser(request);
      const verdict = await verifyTicket(app.db, { userId, deviceEventId: device?.eventId }, request.body, app.clock(), request.log).catch(async (error: unknown) => {
        // Unknown and foreign events count alike, so the limit tells no more than the answer does.
        if (error instanceof ServiceError && error.code === 'not_found') await refusals.consume(userId);
        throw error;
      });
      app.metrics.countVerdict({ source: 'scan', eventId: request.body.eventId, day: request.body.day, isValid: verdict.isValid, reason: verdict.isValid ? undefined : verdict.reason });
      return verdict;
    },
  );
};

export default ticketsRoutes;
