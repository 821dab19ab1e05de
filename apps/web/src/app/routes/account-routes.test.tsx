import { apiPaths, ChangePasswordRequest, ResetPasswordRequest, type AuthOptionsResponse } from '@gatecheck/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

function allowSignUp(isSignUpAllowed: boolean) {
  server.use(http.get(apiUrl(apiPaths.authOptions), () => HttpResponse.json<AuthOptionsResponse>({ isSignUpAllowed })));
}

test('the sign-in screen offers Forgot password? and, while the server does not allow sign-up, no Sign up', async () => {
  let hasAsked = false;
  server.use(
    http.get(apiUrl(apiPaths.authOptions), () => {
      hasAsked = true;
      return HttpResponse.json<AuthOptionsResponse>({ isSignUpAllowed: false });
    }),
  );
  renderApp({ route: '/login', user: null });
  expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  await waitFor(() => expect(hasAsked).toBe(true));
  expect(screen.queryByRole('link', { name: 'Sign up' })).not.toBeInTheDocument();
});

test('the sign-in screen offers Sign up when the server allows it', async () => {
  allowSignUp(true);
  renderApp({ route: '/login', user: null });
  expect(await screen.findByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/sign-up');
});

test('/sign-up sends the visitor to the sign-in screen when the server does not allow sign-up', async () => {
  const { router } = renderApp({ route: '/sign-up', user: null });
  expect(await screen.findByText('Sign in to start scanning tickets')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
});

test('a failing sign-up shows the server message on the screen', async () => {
  allowSignUp(true);
  server.use(http.post(apiUrl(apiPaths.register), () => errorResponse(409, { code: 'conflict', message: 'This username is already taken.' })));
  const { user } = renderApp({ route: '/sign-up', user: null });
  await user.type(await screen.findByLabelText('Name'), 'Kim Gate');
  await user.type(screen.getByLabelText('Username'), 'kim');
  await user.type(screen.getByLabelText('Email'), 'kim@example.org');
  await user.type(screen.getByLabelText('Password'), 'long-enough');
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('This username is already taken.');
});

test('a sign-up that succeeds sends the visitor to the sign-in screen, which shows Account created and keeps it', async () => {
  allowSignUp(true);
  server.use(http.post(apiUrl(apiPaths.register), () => HttpResponse.json({ success: true, message: 'Account created. You can now sign in.' })));
  const { user, router } = renderApp({ route: '/sign-up', user: null });
  await user.type(await screen.findByLabelText('Name'), 'Kim Gate');
  await user.type(screen.getByLabelText('Username'), 'kim');
  await user.type(screen.getByLabelText('Email'), 'kim@example.org');
  await user.type(screen.getByLabelText('Password'), 'long-enough');
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  expect(await screen.findByText('Account created. You can now sign in.')).toBeInTheDocument();
  // The change of screen dismisses the toasts of the screen left, not this one (sonner would have
  // removed a dismissed toast from the page by now).
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(screen.getByText('Account created. You can now sign in.')).toBeInTheDocument();
});

test('forgot password says Reset link sent, or Unable to send reset email. when the server cannot be reached', async () => {
  server.use(http.post(apiUrl(apiPaths.forgotPassword), () => HttpResponse.error()));
  const { user } = renderApp({ route: '/forgot-password', user: null });
  await user.type(await screen.findByLabelText('Email'), 'demo@example.com');
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Unable to send reset email.');

  server.use(http.post(apiUrl(apiPaths.forgotPassword), () => HttpResponse.json({ success: true, message: 'If an account exists…' })));
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Reset link sent');
});

test('a double tap on Send reset link sends one request (one e-mail)', async () => {
  let requests = 0;
  server.use(
    http.post(apiUrl(apiPaths.forgotPassword), () => {
      requests += 1;
      return HttpResponse.json({ success: true, message: 'If an account exists…' });
    }),
  );
  renderApp({ route: '/forgot-password', user: null });
  fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'demo@example.com' } });
  const button = screen.getByRole('button', { name: 'Send reset link' });
  // Two taps in one frame: the second comes before the button is drawn disabled.
  fireEvent.click(button);
  fireEvent.click(button);
  expect(await screen.findByRole('status')).toHaveTextContent('Reset link sent');
  expect(requests).toBe(1);
});

test('the reset screen shows the password rule, refuses two different passwords without a call, and sends the token from the link', async () => {
  let sent: ResetPasswordRequest | undefined;
  server.use(
    http.post(apiUrl(apiPaths.resetPassword), async ({ request }) => {
      sent = ResetPasswordRequest.parse(await request.json());
      return HttpResponse.json({ success: true, message: 'Password updated successfully' });
    }),
  );
  const { user } = renderApp({ route: '/reset-password?token=abc_123', user: null });
  expect(await screen.findByText('At least 8 characters.')).toBeInTheDocument();
  await user.type(screen.getByLabelText('New password'), 'new-password-1');
  await user.type(screen.getByLabelText('Confirm new password'), 'new-password-2');
  await user.click(screen.getByRole('button', { name: 'Update password' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('The two passwords do not match.');
  expect(sent).toBeUndefined();

  await user.clear(screen.getByLabelText('Confirm new password'));
  await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
  await user.click(screen.getByRole('button', { name: 'Update password' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Password updated successfully');
  expect(sent).toEqual({ token: 'abc_123', newPassword: 'new-password-1' });
  expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
});

test('the reset screen shows the server text for a used link, or Password reset failed when it has none', async () => {
  server.use(http.post(apiUrl(apiPaths.resetPassword), () => errorResponse(400, { code: 'bad_request', message: 'This reset link is invalid or has expired.' })));
  const { user } = renderApp({ route: '/reset-password?token=used', user: null });
  await user.type(await screen.findByLabelText('New password'), 'new-password-1');
  await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
  await user.click(screen.getByRole('button', { name: 'Update password' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is invalid or has expired.');
  expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');

  server.use(http.post(apiUrl(apiPaths.resetPassword), () => new HttpResponse('<html>Bad Gateway</html>', { status: 502 })));
  await user.click(screen.getByRole('button', { name: 'Update password' }));
  expect(await screen.findByText('Password reset failed')).toBeInTheDocument();
});

test('change password is reached from the signed-in header and says Password changed successfully, or Failed to change password', async () => {
  let sent: ChangePasswordRequest | undefined;
  server.use(http.post(apiUrl(apiPaths.changePassword), () => new HttpResponse(null, { status: 500 })));
  const { user, router } = renderApp({ route: '/organization-select' });
  await user.click(await screen.findByRole('link', { name: 'Change password' }));
  expect(router.state.location.pathname).toBe('/change-password');
  expect(await screen.findByRole('heading', { name: 'Change password' })).toBeInTheDocument();

  await user.type(screen.getByLabelText('Current password'), 'old-password');
  await user.type(screen.getByLabelText('New password'), 'new-password-1');
  await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to change password');

  server.use(
    http.post(apiUrl(apiPaths.changePassword), async ({ request }) => {
      sent = ChangePasswordRequest.parse(await request.json());
      return HttpResponse.json({ success: true, message: 'Password changed successfully' });
    }),
  );
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Password changed successfully');
  expect(sent).toEqual({ currentPassword: 'old-password', newPassword: 'new-password-1' });
});
