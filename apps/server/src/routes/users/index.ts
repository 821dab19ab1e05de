/** GET /users/me (SPEC §7): the signed-in user's record, by cookie or bearer token. */
import { apiPaths, UserMe } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ServiceError } from '../../services/errors.ts';
import { getUserMe } from '../../services/users.ts';

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(apiPaths.usersMe, { schema: { response: { 200: UserMe } } }, async (request) => {
    const session = await app.authenticate(request);
    const me = await getUserMe(app.db, session.userId);
    if (!me) throw new ServiceError('unauthenticated', 'You are not signed in.');
    return me;
  });
};

export default usersRoutes;
