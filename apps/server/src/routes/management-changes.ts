/**
 * What every route that changes an organizer's resources (the management area, check-in lists,
 * the door team, devices) shares: who is making the change, for the audit trail
 * (docs/decisions/106), and a service refusal's field named as a field of the request body, so the
 * web shows it next to its input (`{ code, message, field: 'body.name' }`, issue 30).
 */
import type { FastifyRequest } from 'fastify';
import { signedInUser } from '../plugins/auth.ts';
import type { Actor } from '../services/audit.ts';
import { ServiceError } from '../services/errors.ts';

/** The signed-in user making a change, as the audit trail records them. */
export function actorOf(request: FastifyRequest): Actor {
  const user = signedInUser(request);
  return { kind: 'user', userId: user.userId, name: user.displayName };
}

/**
 * Runs `work`; a ServiceError that names a field of the service's input (`name`) is thrown again
 * naming it as a field of the body (`body.name`). Any other error passes through unchanged.
 */
export async function namingBodyFields<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServiceError && error.field) throw new ServiceError(error.code, error.message, `body.${error.field}`);
    throw error;
  }
}
