/** Vitest setup for the web project: jest-dom matchers, MSW lifecycle, clean storage per test. */
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { loadSelection } from '@/lib/selection.ts';
import { server } from './msw-server.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

afterEach(async () => {
  cleanup();
  server.resetHandlers();
  window.localStorage.clear();
  await loadSelection();
});

afterAll(() => server.close());
