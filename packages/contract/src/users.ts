/**
 * The signed-in user, GET /users/me (SPEC §3, §7). Fields the client defaults (SPEC §3) are
 * nullable/optional here so the client can apply those defaults; our server always sends them.
 */
import { z } from 'zod';

/** Notification settings (SPEC §3). */
export const UserSettings = z.object({
  emailNotifications: z.boolean(),
  smsNotifications: z.boolean(),
  marketingEmails: z.boolean(),
  eventReminders: z.boolean(),
}).meta({ id: 'UserSettings' });
export type UserSettings = z.infer<typeof UserSettings>;

/** GET /users/me answer: id, displayName, username, email, country, createdAt (ISO 8601), settings. */
export const UserMe = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  username: z.string(),
  email: z.string(),
  country: z.string().nullish(),
  createdAt: z.string().nullish(),
  settings: UserSettings.partial().nullish(),
}).meta({ id: 'UserMe' });
export type UserMe = z.infer<typeof UserMe>;
