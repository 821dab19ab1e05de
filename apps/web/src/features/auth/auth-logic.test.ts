import { describe, expect, test } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { testDay, testEvent, testOrganization, wireUser } from '@/test/fixtures.ts';
import {
  furthestStep,
  isEmailIdentifier,
  loginFailureDescription,
  toLoginRequest,
  toUser,
  validateLogin,
} from './auth-logic.ts';
import { NEW_PASSWORD_RULE, PASSWORDS_DIFFER, USERNAME_RULE, validateNewPassword, validateSignUp } from './account-rules.ts';

describe('login validation (SPEC §5)', () => {
  test('staff must give both an identifier and a password', () => {
    expect(validateLogin('', 'secret')).toBe('Email/username and password are required.');
    expect(validateLogin('   ', 'secret')).toBe('Email/username and password are required.');
    expect(validateLogin('demo', '')).toBe('Email/username and password are required.');
    expect(validateLogin('demo', 'secret')).toBeNull();
  });

  test('an identifier with an @ is an email and is sent as the email', () => {
    expect(isEmailIdentifier('demo@example.com')).toBe(true);
    expect(isEmailIdentifier('demo')).toBe(false);
    expect(toLoginRequest('demo@example.com', 'pw', false).email).toBe('demo@example.com');
  });

  test('a username is sent in the email field too, which holds an email or a username (SPEC §7)', () => {
    expect(toLoginRequest('  demo ', 'pw', false)).toEqual({ email: 'demo', password: 'pw', useCookie: true });
  });

  test('the web asks for the session cookie; native does not', () => {
    expect(toLoginRequest('demo', 'pw', false).useCookie).toBe(true);
    expect(toLoginRequest('demo', 'pw', true)).toEqual({ email: 'demo', password: 'pw' });
  });
});

describe('login failure text (SPEC §8)', () => {
  test('shows the server message when the server gave one', () => {
    expect(loginFailureDescription(new ApiError(401, 'invalid_credentials', 'Wrong email/username or password'))).toBe('Wrong email/username or password');
  });

  test('falls back to Please check your credentials without a server message', () => {
    expect(loginFailureDescription(new ApiError(0, 'network_error', 'Failed to fetch'))).toBe('Please check your credentials');
    expect(loginFailureDescription(new ApiError(502, 'http_error', 'Bad Gateway'))).toBe('Please check your credentials');
    expect(loginFailureDescription(new Error('Failed to fetch user data'))).toBe('Please check your credentials');
  });
});

describe('user mapping (SPEC §3)', () => {
  test('maps displayName to name, createdAt to joinedAt and keeps the token', () => {
    const user = toUser(wireUser, 'tok');
    expect(user).toMatchObject({ id: 'user-1', name: 'Dana Demo', username: 'demo', email: 'demo@example.com', country: 'NL', joinedAt: '2026-01-15T09:30:00.000Z', token: 'tok' });
  });

  test('a user without display name, country or creation time gets No Name, Unknown and now', () => {
    const now = new Date('2026-11-21T05:00:00.000Z');
    const user = toUser({ id: 'u', username: 'x', email: 'x@example.com', displayName: null, country: null, createdAt: null, settings: null }, undefined, now);
    expect(user.name).toBe('No Name');
    expect(user.country).toBe('Unknown');
    expect(user.joinedAt).toBe('2026-11-21T05:00:00.000Z');
    expect(user.token).toBeUndefined();
  });

  test('missing settings take the SPEC §3 defaults: only event reminders on', () => {
    const user = toUser({ ...wireUser, settings: undefined }, 'tok');
    expect(user.settings).toEqual({ emailNotifications: false, smsNotifications: false, marketingEmails: false, eventReminders: true });
  });

  test('partial settings keep what the server sent and default the rest', () => {
    const user = toUser({ ...wireUser, settings: { marketingEmails: true, eventReminders: false } }, 'tok');
    expect(user.settings).toEqual({ emailNotifications: false, smsNotifications: false, marketingEmails: true, eventReminders: false });
  });
});

describe('furthest step after sign-in (SPEC §2)', () => {
  test('a stored day leads to the scanner', () => {
    expect(furthestStep({ organization: testOrganization, event: testEvent, day: testDay })).toBe('/scanner');
  });

  test('a stored event without a day leads to day selection', () => {
    expect(furthestStep({ organization: testOrganization, event: testEvent, day: null })).toBe('/day-select');
  });

  test('a stored organization without an event leads to event selection', () => {
    expect(furthestStep({ organization: testOrganization, event: null, day: null })).toBe('/event-select');
  });

  test('nothing stored leads to organization selection', () => {
    expect(furthestStep({ organization: null, event: null, day: null })).toBe('/organization-select');
  });
});

test('a new password follows the contract rule and must match its confirmation', () => {
  expect(validateNewPassword('short', 'short')).toBe('Password must be at least 8 characters.');
  expect(validateNewPassword('long-enough', 'long-enougH')).toBe(PASSWORDS_DIFFER);
  expect(validateNewPassword('long-enough', 'long-enough')).toBeNull();
  expect(NEW_PASSWORD_RULE).toBe('At least 8 characters.');
});

test('the sign-up form is checked against the contract register rules, in plain words', () => {
  const valid = { name: 'Kim Gate', username: 'kim.gate', email: 'kim@example.org', password: 'long-enough' };
  expect(validateSignUp(valid)).toBeNull();
  expect(validateSignUp({ ...valid, name: '  ' })).toBe('Enter your name.');
  expect(validateSignUp({ ...valid, username: 'k' })).toBe(`Username: ${USERNAME_RULE}`);
  expect(validateSignUp({ ...valid, username: 'kim gate' })).toBe(`Username: ${USERNAME_RULE}`);
  expect(validateSignUp({ ...valid, email: 'kim' })).toBe('Enter a valid email address.');
  expect(validateSignUp({ ...valid, password: 'short' })).toBe('Password must be at least 8 characters.');
});
