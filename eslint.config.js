// Lint-kept boundaries (../shared/STYLE.md "Boundaries"): features do not import each other,
// shared code does not import features or the app, @capacitor/* only in lib/native, the QR decoder
// library only in lib/qr, and the web and the server meet only through @gatecheck/contract.
import { readdirSync } from 'node:fs';
import compat from 'eslint-plugin-compat';
import esX from 'eslint-plugin-es-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const webFeatures = (() => {
  try {
    return readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
})();

const capacitorOnlyInNative = { group: ['@capacitor/*'], message: 'Only apps/web/src/lib/native may import @capacitor/* (STYLE: Boundaries).' };
const decoderOnlyInQr = { group: ['zxing-wasm', 'zxing-wasm/*', 'jsqr'], message: 'The QR decoder sits behind apps/web/src/lib/qr (STYLE: Boundaries).' };
const noServerInWeb = { group: ['**/apps/server/**', '**/server/src/**', '@gatecheck/server', '@gatecheck/server/*'], message: 'apps/web never imports apps/server; use @gatecheck/contract.' };
const noWebInServer = { group: ['**/apps/web/**', '**/web/src/**', '@gatecheck/web', '@gatecheck/web/*'], message: 'apps/server never imports apps/web; use @gatecheck/contract.' };
const noContractInternals = { group: ['@gatecheck/contract/src/**', '@gatecheck/contract/*.ts', '**/packages/contract/src/**'], message: 'Import the contract through its package exports only.' };
const noFeatures = { group: ['@/features/*', '**/features/*'], message: 'Shared code (lib, components, config) must not import features.' };
const noApp = { group: ['@/app/*', '**/app/*'], message: 'Only the app layer imports app/.' };

/** Transactions go through inTransaction, which retries (docs/decisions/042). */
const noBareTransaction = {
  selector: "CallExpression[callee.property.name='transaction']",
  message: 'Use inTransaction(db, work) from src/db/transactions.ts: it retries SQLSTATE 40001/40P01 (docs/decisions/042).',
};
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'apps/web/android/**', 'apps/web/ios/**', '**/data/**', '**/test-results/**', '**/playwright-report/**', 'apps/server/drizzle/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/native/**', 'apps/web/src/lib/qr/**', 'apps/web/src/features/**', 'apps/web/src/lib/**', 'apps/web/src/components/**', 'apps/web/src/config/**'],
    rules: restrict(capacitorOnlyInNative, decoderOnlyInQr, noServerInWeb, noContractInternals),
  },
  {
    files: ['apps/web/src/lib/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/config/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/native/**', 'apps/web/src/lib/qr/**'],
    rules: restrict(capacitorOnlyInNative, decoderOnlyInQr, noServerInWeb, noContractInternals, noFeatures, noApp),
  },
  {
    files: ['apps/web/src/lib/native/**/*.{ts,tsx}'],
    rules: restrict(decoderOnlyInQr, noServerInWeb, noContractInternals, noFeatures, noApp),
  },
  {
    files: ['apps/web/src/lib/qr/**/*.{ts,tsx}'],
    rules: restrict(capacitorOnlyInNative, noServerInWeb, noContractInternals, noFeatures, noApp),
  },
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: restrict(
      capacitorOnlyInNative,
      decoderOnlyInQr,
      noServerInWeb,
      noContractInternals,
      noApp,
      {
        group: ['@/features/*', '!@/features/' + feature, '!@/features/' + feature + '/**', '../../features/*', '../../*/'],
        message: `Features do not import each other; they meet in app/routes (feature: ${feature}).`,
      },
    ),
  })),
  {
    // The app's bundle imports the contract one resource at a time (`@gatecheck/contract/tickets`):
    // through the barrel every resource's schemas land in the chunks of every screen, and the
    // scanner's first screen evaluated the management area's (docs/decisions/128). Tests may use it.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@gatecheck/contract', message: 'Import the contract per resource in the app (@gatecheck/contract/<resource>, docs/decisions/128).' }] },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: restrict(noWebInServer, noContractInternals),
  },
  {
    // Every CSV we write escapes formulas (docs/decisions/086): one writer, services/csv-files.ts.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/services/csv-files.ts'],
    rules: restrict(noWebInServer, noContractInternals, {
      group: ['csv-stringify', 'csv-stringify/*'],
      message: 'Write CSV with csvWriter/csvText from services/csv-files.ts: they escape spreadsheet formulas (docs/decisions/086).',
    }),
  },
  {
    // Every transaction retries serialization failures and deadlocks (docs/decisions/042).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/db/transactions.ts'],
    rules: { 'no-restricted-syntax': ['error', noBareTransaction] },
  },
  {
    // A ticket type's door fields are read one way (docs/decisions/133): services/ticket-type-door.ts,
    // so the counts, search and info scan cannot drift from the door's verdict again. The type's own
    // service (create, edit, rename, the door list's types) keeps its columns. (A flat config's later
    // block replaces an earlier one's options for the same rule: the transaction selector is repeated.)
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/db/transactions.ts', 'apps/server/src/services/ticket-type-door.ts', 'apps/server/src/services/ticket-types.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        noBareTransaction,
        {
          selector: "MemberExpression[object.name=/^ticketTypes$|^ticketTypeRows$/][property.name=/^(days|checkInNote|requiresAttention)$/]",
          message: "Read a ticket type's note, flag and days through services/ticket-type-door.ts (ticketTypeDoorColumns, typeOfTicket, typeAdmitsDaySql; docs/decisions/133).",
        },
      ],
    },
  },
  // The web app runs on the browser floor of docs/decisions/090: Android System WebView / Chrome 99,
  // iOS / Safari 15.5 (apps/web/package.json's browserslist, vite.config.ts's build.target). Oxc
  // lowers newer syntax; a newer API must have a fallback in apps/web/src/boot/polyfills.js or is an
  // error here: in the app's code and in the contract's, which the app's bundle holds. Tests run in
  // Node and jsdom, not on a phone.
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'packages/contract/src/**/*.ts'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**', 'packages/contract/src/**/*.test.ts'],
    plugins: { compat, 'es-x': esX },
    settings: {
      // Web APIs (MDN's data for the browserslist) and ECMAScript built-ins alike.
      lintAllEsApis: true,
    },
    // Type information tells es-x that `list.toSorted()` is an array's method and `z.union()` is not a Set's.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'compat/compat': 'error',
      // ECMAScript: built-ins of ES2023 and later are newer than the floor...
      ...esX.configs['flat/restrict-to-es2022'].rules,
      // ...except findLast/findLastIndex (Chrome 97, Safari 15.4) and isWellFormed (polyfills.js).
      'es-x/no-array-prototype-findlast-findlastindex': 'off',
      'es-x/no-string-prototype-iswellformed': 'off',
      // Static methods of web APIs that compat's MDN snapshot does not list. URL.canParse,
      // AbortSignal.timeout and AbortSignal.any are absent from this list because src/boot/polyfills.js
      // supplies them; add an API here, or a fallback there, when the code needs a newer one.
      // (Checked in tooling/browser-floor-lint.test.ts.)
      'no-restricted-properties': [
        'error',
        ...[
          ['URL', 'parse', 'Chrome 126, Safari 18'],
          ['Response', 'json', 'Chrome 105, Safari 17'],
        ].map(([object, property, since]) => ({
          object,
          property,
          message: `${object}.${property} is newer than the browser floor (${since}; docs/decisions/090): add a fallback to apps/web/src/boot/polyfills.js or do without.`,
        })),
      ],
    },
  },
  {
    files: ['apps/web/e2e/**/*.ts', 'apps/web/bench/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
