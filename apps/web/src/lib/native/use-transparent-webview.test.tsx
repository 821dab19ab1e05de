import { render } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, expect, test } from 'vitest';
import { TRANSPARENT_WEBVIEW_CLASS, useTransparentWebView } from './use-transparent-webview.ts';

function Probe({ isActive }: { isActive: boolean }) {
  useTransparentWebView(isActive);
  return null;
}

const marked = () =>
  [document.documentElement, document.body, document.getElementById('root')].map((element) => element?.classList.contains(TRANSPARENT_WEBVIEW_CLASS));

afterEach(() => document.getElementById('root')?.remove());

test('while active, html, body and #root carry the transparent class; inactive or unmounted restores them', () => {
  const root = document.createElement('div');
  root.id = 'root';
  document.body.append(root);
  const view = render(createElement(Probe, { isActive: false }));
  expect(marked()).toEqual([false, false, false]);
  view.rerender(createElement(Probe, { isActive: true }));
  expect(marked()).toEqual([true, true, true]);
  view.rerender(createElement(Probe, { isActive: false }));
  expect(marked()).toEqual([false, false, false]);
  view.rerender(createElement(Probe, { isActive: true }));
  view.unmount();
  expect(marked()).toEqual([false, false, false]);
});

test('other classes on the ancestors are kept', () => {
  document.documentElement.classList.add('dark');
  const view = render(createElement(Probe, { isActive: true }));
  view.unmount();
  expect(document.documentElement.classList.contains('dark')).toBe(true);
  document.documentElement.classList.remove('dark');
});
