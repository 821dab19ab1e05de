/**
 * Authentication calls of SPEC §7 (`/auth/*`). Wire names follow the spec word for word. What the
 * sign-in screen reads (the login answer, GET /auth/options, the password lengths) is in sign-in.ts.
 */
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './sign-in.ts';
import { requestText } from './text.ts';

const identifier = requestText().trim().min(1, 'Email/username and password are required.').max(254);
const password = requestText().min(1, 'Email/username and password are required.').max(PASSWORD_MAX_LENGTH);
const newPassword = requestText()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH);

/** POST /auth/login. `email` holds an email or a username (SPEC §7); `useCookie` is sent by the web. */
export const LoginRequest = z.object({
  email: identifier,
  password,
  useCookie: z.boolean().optional(),
}).meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequest>;

/** POST /auth/login answer as our server sends it: the session `token` and when it expires (ISO 8601). */
export const LoginResponse = z
  .object({
    token: z.string(),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof LoginResponse>;

/** POST /auth/register (SPEC §7): name, username, email, password, country (ISO code or empty). */
export const RegisterRequest = z.object({
  name: requestText().trim().min(1).max(120),
  username: requestText()
    .trim()
    .min(3)
    .max(40)
    .regex(/^[a-zA-Z0-9._-]+$/, 'Username may contain letters, digits, dot, dash and underscore.'),
  email: requestText().trim().email().max(254),
  password: newPassword,
  country: requestText().trim().max(2).default(''),
}).meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** A success flag and a message: the answer of register, forgot- and reset-password (SPEC §7). */
export const FlagMessageResponse = z.object({
  success: z.boolean(),
  message: z.string(),
}).meta({ id: 'FlagMessageResponse' });
export type FlagMessageResponse = z.infer<typeof FlagMessageResponse>;

/** POST /auth/logout: an empty JSON body (SPEC §7). */
export const LogoutRequest = z.object({}).strict().meta({ id: 'LogoutRequest' }).optional();
export type LogoutRequest = z.infer<typeof LogoutRequest>;

/** POST /auth/logout answer. The client ignores it and any failure (SPEC §7, §8). */
export const LogoutResponse = z.object({
  success: z.boolean(),
}).meta({ id: 'LogoutResponse' });
export type LogoutResponse = z.infer<typeof LogoutResponse>;

/** POST /auth/change-password (SPEC §7). */
export const ChangePasswordRequest = z.object({
  currentPassword: password,
  newPassword,
}).meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** POST /auth/forgot-password (SPEC §7). */
export const ForgotPasswordRequest = z.object({
  email: requestText().trim().email().max(254),
}).meta({ id: 'ForgotPasswordRequest' });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

/** POST /auth/reset-password (SPEC §7). */
export const ResetPasswordRequest = z.object({
  token: requestText().min(1).max(512),
  newPassword,
}).meta({ id: 'ResetPasswordRequest' });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;
