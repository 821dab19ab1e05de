/**
 * The app's start on the page the build prerendered (docs/decisions/082, app/prerender.tsx): which
 * element React takes, and the clean-up of the others.
 *
 * index.html holds, for each language, the sign-in screen and the guard's 'Loading...', each a
 * `<div data-prerendered="sign-in" | "loading" lang>`; src/boot/first-paint.ts has put the visitor's
 * case on `<html data-boot>` ('sign-in' when React will render exactly that form: a browser at
 * /login with no stored user; 'loading' otherwise) and the language on `<html lang>`, and index.css
 * shows the matching element. A page without them (the dev server, the screen tests) gets `#root`.
 */

/**
 * React's `identifierPrefix` for the prerendered sign-in of `language`, in the build's render and in
 * its hydration: the page holds the form once per language, so each copy's `useId` ids (the fields'
 * ids, the radio groups' names) must differ from the others'.
 */
export function idPrefixOf(language: string): string {
  return `${language}-`;
}

/** Where the app renders, and how. */
export interface AppContainer {
  /** The element React takes (its id is 'root' once `settlePrerenderedPage` ran). */
  element: HTMLElement;
  /** True when `element` holds the prerendered sign-in of the app's language, to hydrate as is. */
  isPrerendered: boolean;
}

/**
 * The element to hydrate when the first render is the prerendered sign-in: the page shows it
 * (`html[data-boot=sign-in]`) in `language`, and the app renders the sign-in form (`isSignInFirst`:
 * a browser at /login with no stored user). Otherwise `#root`, emptied for a fresh render.
 * @throws {Error} when the page has no `#root` (an index.html without it)
 */
export function chooseAppContainer(language: string, isSignInFirst: boolean, document: Document = window.document): AppContainer {
  const html = document.documentElement;
  const prerendered = document.querySelector<HTMLElement>(`[data-prerendered="sign-in"][lang="${language}"]`);
  if (isSignInFirst && html.dataset['boot'] === 'sign-in' && prerendered !== null && prerendered.childElementCount > 0) {
    return { element: prerendered, isPrerendered: true };
  }
  const root = document.getElementById('root');
  if (root === null) throw new Error('index.html has no #root element');
  // The prerendered sign-in in #root (hidden unless this was the sign-in case) is not what React renders now.
  if (root.hasAttribute('data-prerendered')) root.replaceChildren();
  return { element: root, isPrerendered: false };
}

/**
 * Once React has the container: it becomes a plain `#root` (shown by no rule of index.css), the
 * other prerendered elements go, and `<html data-boot>` is removed. The prerendered 'Loading...'
 * stays on show until the app's own render shows some text (a hydrated sign-in has it at once), so
 * no frame is blank between the two.
 */
export function settlePrerenderedPage(container: AppContainer, document: Document = window.document): void {
  const { element } = container;
  const loading = [...document.querySelectorAll<HTMLElement>('[data-prerendered="loading"]')];
  for (const other of document.querySelectorAll<HTMLElement>('[data-prerendered="sign-in"]')) {
    if (other !== element) other.remove();
  }
  element.id = 'root';
  element.removeAttribute('data-prerendered');
  element.removeAttribute('lang');
  const takeOver = () => {
    for (const message of loading) message.remove();
    document.documentElement.removeAttribute('data-boot');
  };
  if (container.isPrerendered || loading.length === 0 || hasText(element)) {
    takeOver();
    return;
  }
  const observer = new MutationObserver(() => {
    if (!hasText(element)) return;
    observer.disconnect();
    takeOver();
  });
  observer.observe(element, { childList: true, subtree: true, characterData: true });
}

function hasText(element: HTMLElement): boolean {
  return (element.textContent ?? '').trim() !== '';
}
