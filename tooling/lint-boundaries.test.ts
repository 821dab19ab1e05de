/**
 * The architecture boundaries of ../shared/STYLE.md are kept by ESLint (eslint.config.js). These tests
 * lint small snippets as if they stood at given paths and check that each boundary fires — and that
 * the allowed import next to it does not.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, test } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
// The snippets are not files on disk, so the type-aware block of eslint.config.js (the browser floor,
// which needs each file in a tsconfig) runs without type information here.
const eslint = new ESLint({ cwd: repoRoot, overrideConfig: { languageOptions: { parserOptions: { projectService: false } } } });

async function restrictedImportMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// ESLint's first run loads every plugin and the browser-compat data (several seconds on a busy machine).
beforeAll(async () => {
  await eslint.lintText('export {};\n', { filePath: 'apps/web/src/lib/example.ts' });
}, 60_000);

describe('lint boundaries', () => {
  test('a feature cannot import another feature', async () => {
    const messages = await restrictedImportMessages(
      "import { x } from '@/features/organizations/api';\nexport const y = x;\n",
      'apps/web/src/features/scanner/example.ts',
    );
    expect(messages.join('\n')).toMatch(/Features do not import each other/);
  });

  test('a feature can import its own modules and shared lib', async () => {
    const messages = await restrictedImportMessages(
      "import { a } from '@/features/scanner/api';\nimport { b } from '@/lib/api-client';\nexport const y = [a, b];\n",
      'apps/web/src/features/scanner/example.ts',
    );
    expect(messages).toEqual([]);
  });

  test('shared lib cannot import a feature or the app', async () => {
    const feature = await restrictedImportMessages("import { a } from '@/features/scanner/api';\nexport const y = a;\n", 'apps/web/src/lib/example.ts');
    const app = await restrictedImportMessages("import { a } from '@/app/router';\nexport const y = a;\n", 'apps/web/src/components/ui/example.ts');
    expect(feature.join('\n')).toMatch(/must not import features/);
    expect(app.join('\n')).toMatch(/Only the app layer imports app/);
  });

  test('@capacitor/* is only imported inside lib/native', async () => {
    const outside = await restrictedImportMessages("import { Preferences } from '@capacitor/preferences';\nexport const p = Preferences;\n", 'apps/web/src/lib/storage.ts');
    const inside = await restrictedImportMessages("import { Preferences } from '@capacitor/preferences';\nexport const p = Preferences;\n", 'apps/web/src/lib/native/preferences.ts');
    expect(outside.join('\n')).toMatch(/lib\/native/);
    expect(inside).toEqual([]);
  });

  test('the QR decoder library is only imported inside lib/qr', async () => {
    const outside = await restrictedImportMessages("import { readBarcodes } from 'zxing-wasm/reader';\nexport const r = readBarcodes;\n", 'apps/web/src/features/scanner/decode.ts');
    const inside = await restrictedImportMessages("import { readBarcodes } from 'zxing-wasm/reader';\nexport const r = readBarcodes;\n", 'apps/web/src/lib/qr/zxing.ts');
    expect(outside.join('\n')).toMatch(/lib\/qr/);
    expect(inside).toEqual([]);
  });

  test('the web and the server meet only through the contract package exports', async () => {
    const webToServer = await restrictedImportMessages("import { x } from '../../../server/src/app';\nexport const y = x;\n", 'apps/web/src/app/example.ts');
    const serverToWeb = await restrictedImportMessages("import { x } from '../../web/src/lib/api-client';\nexport const y = x;\n", 'apps/server/src/example.ts');
    const contractInternals = await restrictedImportMessages("import { x } from '@gatecheck/contract/src/tickets';\nexport const y = x;\n", 'apps/server/src/example.ts');
    expect(webToServer.join('\n')).toMatch(/never imports apps\/server/);
    expect(serverToWeb.join('\n')).toMatch(/never imports apps\/web/);
    expect(contractInternals.join('\n')).toMatch(/package exports only/);
  });

  test("a ticket type's door fields are read only through services/ticket-type-door.ts; a bare transaction is still refused beside that rule", async () => {
    const syntaxMessages = async (code: string, filePath: string) =>
      ((await eslint.lintText(code, { filePath }))[0]?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
    const read = "import { ticketTypes } from '../db/schema.ts';\nexport const days = ticketTypes.days;\n";
    expect((await syntaxMessages(read, 'apps/server/src/services/check-in-counts.ts')).join('\n')).toMatch(/ticket-type-door\.ts/);
    expect(await syntaxMessages(read, 'apps/server/src/services/ticket-type-door.ts')).toEqual([]);
    expect(await syntaxMessages(read, 'apps/server/src/services/ticket-types.ts')).toEqual([]);
    const transaction = 'export const run = (db: { transaction(work: () => void): void }) => db.transaction(() => {});\n';
    expect((await syntaxMessages(transaction, 'apps/server/src/services/check-in-counts.ts')).join('\n')).toMatch(/inTransaction/);
    expect((await syntaxMessages(transaction, 'apps/server/src/services/ticket-types.ts')).join('\n')).toMatch(/inTransaction/);
  });
});
