/**
 * The signed-in user, GET /users/me (SPEC §3, §7). Fields the client defaults (SPEC §3) are
 * nullable/optional here so the client can apply those defaults; our server always sends them.
 *
 * Written with `zod/mini`: the web app's session check and sign-in parse `UserMe` on the first load
 * (issue 13, docs/decisions/061); the server uses the same schemas for its answers.
 */
import { z } from 'zod/mini';

/** Notification settings (SPEC §3). */
export const UserSettings = z.object({
  emailNotifications: z.boolean(),
  smsNotifications: z.boolean(),
  marketingEmails: z.boolean(),
  eventReminders: z.boolean(),
}).register(z.globalRegistry, { id: 'UserSettings' });
export type UserSettings = z.infer<typeof UserSettings>;

/** GET /users/me answer: id, displayName, username, email, country, createdAt (ISO 8601), settings. */
export const UserMe = z.object({
  id: z.string(),
  displayName: z.nullish(z.string()),
  username: z.string(),
  email: z.string(),
  country: z.nullish(z.string()),
  createdAt: z.nullish(z.string()),
  settings: z.nullish(z.partial(UserSettings)),
}).register(z.globalRegistry, { id: 'UserMe' });
export type UserMe = z.infer<typeof UserMe>;
