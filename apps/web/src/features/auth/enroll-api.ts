/**
 * Setting this device up from an organizer's enrollment link (docs/decisions/107): the one-time
 * token is redeemed (`POST /devices/enroll`; the web also gets the session cookie), the device's
 * record is read with its new token, and stored as the signed-in user, as a sign-in would. On the
 * native app the link's server becomes the app's server first (checked as the Server field is).
 * Loaded only by the /enroll screen: its schemas stay off the first load.
 */
import { deviceApiPaths, RedeemEnrollmentResponse } from '@gatecheck/contract/devices';
import { apiPaths, parseEnrollmentLink } from '@gatecheck/contract/paths';
import { UserMe } from '@gatecheck/contract/users';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';
import type { User } from '@/lib/entities.ts';
import { isNativePlatform } from '@/lib/native/platform.ts';
import { checkServerAddress, parseServerAddress, saveServerAddress, serverAddressMessage } from '@/lib/server-address.ts';
import { clearSelection } from '@/lib/selection.ts';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { toUser } from './auth-logic.ts';
import type { SessionStore } from './session-store.ts';

/** A set-up that cannot go on, in words for the screen. */
export class EnrollmentProblem extends Error {}

/**
 * Redeems the enrollment `link` and stores the device as the signed-in user.
 * @throws EnrollmentProblem for a text that is no enrollment link or a server that cannot be used;
 *   ApiError from the server's refusal (its message says why: used, expired, not valid).
 */
export async function enrollThisDevice(link: string): Promise<User> {
  const parsed = parseEnrollmentLink(link);
  if (!parsed) throw new EnrollmentProblem('invalid_link');
  const isNative = isNativePlatform();
  if (isNative) {
    const server = parseServerAddress(parsed.serverUrl);
    if (server.problem) throw new EnrollmentProblem(serverAddressMessage(server.problem));
    const problem = await checkServerAddress(server.apiBaseUrl);
    if (problem) throw new EnrollmentProblem(serverAddressMessage(problem));
    await saveServerAddress(server.apiBaseUrl).catch(() => undefined);
  }
  const redeemed = await apiRequest(deviceApiPaths.redeemEnrollment, {
    method: 'POST',
    body: { token: parsed.token, platform: isNative ? undefined : 'web', useCookie: !isNative },
    schema: RedeemEnrollmentResponse,
    token: null,
  });
  const me = await apiRequest(apiPaths.usersMe, { schema: UserMe, token: redeemed.token });
  const user = { ...toUser(me, redeemed.token), device: { ...redeemed.device, checkInListId: redeemed.device.checkInListId ?? null, token: redeemed.token } };
  await writeStoredUser(user);
  return user;
}

/** The set-up as a mutation: on success the previous choices are gone and the device is signed in to `session`. */
export function useEnrollMutation(session: SessionStore) {
  return useMutation({
    mutationFn: async (link: string) => {
      const user = await enrollThisDevice(link);
      await clearSelection('organization');
      return user;
    },
    onSuccess: (user) => session.signInAs(user),
  });
}
