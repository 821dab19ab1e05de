/**
 * GET /health and GET /ready (issue 14, not in SPEC §7; docs/decisions/041): public, outside the
 * signed-in scope, for load balancers and orchestrators polling every second or so.
 *
 * - /health: 200 `{ status: 'ok', apiVersion, oldestAppApiVersion }` while the process answers at all
 *   (a liveness probe: no database; the versions: docs/decisions/094).
 * - /ready: 200 `{ status: 'ready' }` when the database answered one cheap query within 2 s and has
 *   every migration of this build; 503 `{ code: 'not_ready', message }` when it did not, or once a
 *   graceful shutdown has begun (server.ts sets `app.lifecycle.isStopping` before draining).
 */
import { API_VERSION, apiPaths, HealthResponse, OLDEST_APP_API_VERSION, ReadyResponse } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkDatabaseReadiness } from '../../db/client.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { ServiceError } from '../../services/errors.ts';

/** The 503 messages, by cause. */
export const NOT_READY_MESSAGES = {
  stopping: 'This server is shutting down.',
  unreachable: 'The database does not answer.',
  read_only: 'The database is a standby that cannot record check-ins (a failover is under way).',
  not_migrated: 'The database is not migrated to this version yet: run npm run db:migrate.',
} as const;

const operationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(apiPaths.health, { schema: { operationId: 'getHealth', response: { 200: HealthResponse } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const, apiVersion: API_VERSION, oldestAppApiVersion: OLDEST_APP_API_VERSION };
  });

  app.get(apiPaths.ready, { schema: { operationId: 'getReadiness', response: { 200: ReadyResponse, ...ruleErrors('not_ready') } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (app.lifecycle.isStopping) throw new ServiceError('not_ready', NOT_READY_MESSAGES.stopping);
    const readiness = await checkDatabaseReadiness(app.db);
    if (readiness !== 'ready') throw new ServiceError('not_ready', NOT_READY_MESSAGES[readiness]);
    return { status: 'ready' as const };
  });
};

export default operationsRoutes;
