/**
 * Authentication calls of SPEC §7 (`/auth/*`). Wire names follow the spec word for word.
 */
import { z } from 'zod';

/** Longest password accepted, in characters (bounds hashing work per request). */
export const PASSWORD_MAX_LENGTH = 256;
/** Shortest password accepted for new passwords (register, change, reset), in characters. */
export const PASSWORD_MIN_LENGTH = 8;

const identifier = z.string().trim().min(1, 'Email/username and password are required.').max(254);
const password = z.string().min(1, 'Email/username and password are required.').max(PASSWORD_MAX_LENGTH);
const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH);

/** POST /auth/login. `email` holds an email or a username (SPEC §7); `useCookie` is sent by the web. */
export const LoginRequest = z.object({
  email: identifier,
  password,
  useCookie: z.boolean().optional(),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** POST /auth/login answer: the server always returns `token`; the client also accepts `sessionToken` (SPEC §7). */
export const LoginResponse = z.object({
  token: z.string().optional(),
  sessionToken: z.string().optional(),
  expiresAt: z.string().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

/** POST /auth/register (SPEC §7): name, username, email, password, country (ISO code or empty). */
export const RegisterRequest = z.object({
  name: z.string().trim().min(1).max(120),
  username: z
    .string()
    .trim()
    .min(3)
    .max(40)
    .regex(/^[a-zA-Z0-9._-]+$/, 'Username may contain letters, digits, dot, dash and underscore.'),
  email: z.string().trim().email().max(254),
  password: newPassword,
  country: z.string().trim().max(2).default(''),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** A success flag and a message: the answer of register, forgot- and reset-password (SPEC §7). */
export const FlagMessageResponse = z.object({
  success: z.boolean(),
  message: z.string(),
});
export type FlagMessageResponse = z.infer<typeof FlagMessageResponse>;

/** POST /auth/logout: an empty JSON body (SPEC §7). */
export const LogoutRequest = z.object({}).strict().optional();
export type LogoutRequest = z.infer<typeof LogoutRequest>;

/** POST /auth/logout answer. The client ignores it and any failure (SPEC §7, §8). */
export const LogoutResponse = z.object({
  success: z.boolean(),
});
export type LogoutResponse = z.infer<typeof LogoutResponse>;

/** POST /auth/change-password (SPEC §7). */
export const ChangePasswordRequest = z.object({
  currentPassword: password,
  newPassword,
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** POST /auth/forgot-password (SPEC §7). */
export const ForgotPasswordRequest = z.object({
  email: z.string().trim().email().max(254),
});
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

/** POST /auth/reset-password (SPEC §7). */
export const ResetPasswordRequest = z.object({
  token: z.string().min(1).max(512),
  newPassword,
});
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;
