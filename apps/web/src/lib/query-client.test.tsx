import { QueryObserver } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { Toaster } from 'sonner';
import { expect, test } from 'vitest';
import { ApiError } from './api-client.ts';
import { createQueryClient, retryDelay, shouldRetry } from './query-client.ts';

test('failed queries are retried 3 times (SPEC §9)', () => {
  const error = new ApiError(503, 'http_error', 'Service Unavailable');
  expect([0, 1, 2].map((count) => shouldRetry(count, error))).toEqual([true, true, true]);
  expect(shouldRetry(3, error)).toBe(false);
  expect(shouldRetry(0, new ApiError(0, 'network_error', 'offline'))).toBe(true);
});

test('a 4xx answer is not retried: asking again cannot fix it', () => {
  expect(shouldRetry(0, new ApiError(401, 'unauthenticated', 'no'))).toBe(false);
  expect(shouldRetry(0, new ApiError(404, 'not_found', 'no'))).toBe(false);
});

test('retries back off exponentially and never wait more than 30 s (SPEC §9)', () => {
  expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
});

test('cached data is discarded after 5 minutes and the retry policy is the default (SPEC §9)', () => {
  const client = createQueryClient();
  const defaults = client.getDefaultOptions().queries;
  expect(defaults?.gcTime).toBe(300_000);
  expect(defaults?.retry).toBe(shouldRetry);
  expect(defaults?.retryDelay).toBe(retryDelay);
  expect(createQueryClient({ retry: false }).getDefaultOptions().queries?.retry).toBe(false);
});

test('offline, queries and mutations still run and fail fast instead of pausing', () => {
  const client = createQueryClient();
  expect(client.getDefaultOptions().queries?.networkMode).toBe('always');
  expect(client.getDefaultOptions().mutations?.networkMode).toBe('always');
});

test('a query that finally fails shows its error toast once', async () => {
  const client = createQueryClient({ retry: false });
  const observer = new QueryObserver(client, {
    queryKey: ['failing'],
    queryFn: () => Promise.reject(new ApiError(500, 'internal_error', 'boom')),
    meta: { errorToast: { title: 'Error', description: 'Could not load organizations' } },
  });
  render(<Toaster />);
  const unsubscribe = observer.subscribe(() => {});
  expect(await screen.findByText('Could not load organizations')).toBeInTheDocument();
  unsubscribe();
  expect(screen.getAllByText('Error')).toHaveLength(1);
});
