import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp } from '@/test/render.tsx';

test('an unknown path shows the 404 page with a link home', async () => {
  renderApp({ route: '/no-such-page', user: null });
  expect(await screen.findByText('Oops! Page not found')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
});

test('Return to Home leads through / to the login screen', async () => {
  const { user, router } = renderApp({ route: '/no-such-page', user: null });
  await user.click(await screen.findByRole('link', { name: 'Return to Home' }));
  expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
});
