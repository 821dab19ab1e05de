import { expect, test } from 'vitest';
import { env, parseEnv } from './env.ts';

test('by default the API is on the same origin under /api and the IP lookup is off', () => {
  expect(parseEnv({})).toEqual({ apiBaseUrl: '/api', ipLookupUrl: undefined });
  expect(env).toEqual({ apiBaseUrl: '/api', ipLookupUrl: undefined });
});

test('the native app can point at an absolute API URL; a trailing slash is dropped', () => {
  expect(parseEnv({ VITE_API_BASE_URL: 'https://gate.example.com/api/' }).apiBaseUrl).toBe('https://gate.example.com/api');
});

test('the IP lookup is on when its URL is configured, off when empty', () => {
  expect(parseEnv({ VITE_IP_LOOKUP_URL: 'https://ipapi.co/json/' }).ipLookupUrl).toBe('https://ipapi.co/json/');
  expect(parseEnv({ VITE_IP_LOOKUP_URL: '' }).ipLookupUrl).toBeUndefined();
});

test('malformed configuration is refused at start', () => {
  expect(() => parseEnv({ VITE_API_BASE_URL: 'gate.example.com' })).toThrow();
  expect(() => parseEnv({ VITE_IP_LOOKUP_URL: 'not a url' })).toThrow();
});
