import { screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { renderWithProviders } from '@/test/render.tsx';
import { RouteError } from './route-error.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

function Broken(): never {
  throw new Error('render defect');
}

test('a screen that fails to render shows a way back instead of a blank page', async () => {
  // React reports the caught render error on the console; it is the expected outcome here.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  renderWithProviders(<Broken />, { route: '/broken', errorElement: <RouteError /> });
  expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
});
