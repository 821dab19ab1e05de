/** GET /users/me (SPEC §7): the signed-in user's record, by cookie or bearer token. */
import { apiPaths, UserMe } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ServiceError } from '../../services/errors.ts';
import { getUserMe } from '../../services/users.ts';

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(apiPaths.usersMe, { schema: { operationId: 'getUserMe', response: { 200: UserMe } } }, async (request) => {
    const me = await getUserMe(app.db, signedInUser(request).userId);
    if (!me) throw new ServiceError('unauthenticated', 'You are not signed in.');
    return me;
  });
};

export default usersRoutes;
