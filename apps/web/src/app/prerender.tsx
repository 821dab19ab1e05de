/**
 * The sign-in screen rendered at build time (docs/decisions/082): React's server renderer turns the
 * app at /login, signed out, into HTML in each language, plus the guard's full-screen 'Loading...'
 * (SPEC §2) in each. The build (apps/web/prerender-plugin.ts) puts `prerenderedBody()` in place of
 * index.html's empty `<div id="root"></div>`, so the browser paints the form before any JavaScript
 * runs, and the app hydrates the page of its language (prerendered-page.ts).
 *
 * Every element carries `data-prerendered` ('sign-in' | 'loading') and `lang`; which one shows is
 * decided before the first paint by src/boot/first-paint.ts and index.css. Without JavaScript the
 * English sign-in shows (SPEC §2's texts). The English sign-in is `#root`.
 */
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { FullScreenMessage } from '@/components/full-screen-message.tsx';
import { paths } from '@/config/paths.ts';
import { createSessionStore } from '@/features/auth/session-store.ts';
import { i18n, LANGUAGES, type Language } from '@/lib/i18n/index.ts';
import { lazyQueryClient } from '@/lib/query-client-slot.ts';
import { App } from './app.tsx';
import { idPrefixOf } from './prerendered-page.ts';
import { AppRoutes } from './router.tsx';

/** The element kinds of the prerendered page: the sign-in form, or the guard's 'Loading...'. */
export type PrerenderedKind = 'sign-in' | 'loading';

/**
 * The app at /login for a visitor with no stored session, in i18next's language now, as HTML (what
 * `hydrateRoot` will find); ids prefixed for `language` (`idPrefixOf`).
 */
export function renderSignIn(language: Language): string {
  // The sign-in screen needs no query cache: a slot that is never loaded.
  const queryClient = lazyQueryClient(() => Promise.reject(new Error('The prerendered sign-in screen has no query cache.')));
  const session = createSessionStore({ queryClient, initial: { user: null } });
  return renderToString(<App session={session} queryClient={queryClient} router={<StaticRouter location={paths.login}><AppRoutes /></StaticRouter>} />, {
    identifierPrefix: idPrefixOf(language),
  });
}

/** The guard's 'Loading...' (SPEC §2) as the app shows it (the same component), as HTML. */
export function renderLoading(): string {
  return renderToString(<FullScreenMessage>{i18n.t('common.loading')}</FullScreenMessage>);
}

/** One prerendered element: `<div data-prerendered lang>` around `html`; the English sign-in has id 'root'. */
function element(kind: PrerenderedKind, language: Language, html: string): string {
  const id = kind === 'sign-in' && language === 'en' ? ' id="root"' : '';
  return `<div${id} data-prerendered="${kind}" lang="${language}">${html}</div>`;
}

/**
 * The body of index.html before its scripts: the sign-in screen and 'Loading...' in every language
 * (English first). Leaves i18next in English. @throws {Error} when a language's texts cannot be loaded
 */
export async function prerenderedBody(): Promise<string> {
  const parts: string[] = [];
  for (const language of LANGUAGES) {
    await i18n.changeLanguage(language);
    if (i18n.resolvedLanguage !== language) throw new Error(`The ${language} texts could not be loaded for the prerender.`);
    parts.push(element('sign-in', language, renderSignIn(language)), element('loading', language, renderLoading()));
  }
  await i18n.changeLanguage('en');
  return parts.join('\n    ');
}
