/**
 * Issue 10 item 9, decision 050: no screen passes a literal text to the UI — every visible string
 * goes through i18n, or German screens show English. Reads the app's sources (TypeScript's own parser)
 * and fails on any JSX text with words, any literal aria-label / title / placeholder / alt / label
 * attribute with words, and any literal `title` / `description` of a toast or notice object.
 * The few allowed literals (an example URL, language names each in its own language) are listed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const SOURCE_ROOT = join(import.meta.dirname, '..', '..');
/** Literal texts that are not words of a language. */
const ALLOWED = new Set(['https://gate.example.com', 'English', 'Deutsch']);
const UI_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'title', 'placeholder', 'alt', 'label', 'description', 'subtitle']);
const UI_PROPERTIES = new Set(['title', 'description']);

/** Source files of the app (no tests, no test helpers). */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const hasWords = (text: string) => /[A-Za-zÄÖÜäöüß]{2}/.test(text) && !ALLOWED.has(text.trim());

/** 'file:line text' for every literal UI text in `path`. */
function literalTexts(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => found.push(`${relative(SOURCE_ROOT, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${text.trim()}`);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && UI_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      const value = node.initializer;
      if (ts.isStringLiteral(value) && hasWords(value.text)) report(node, value.text);
      if (ts.isJsxExpression(value) && value.expression && ts.isStringLiteralLike(value.expression) && hasWords(value.expression.text)) report(node, value.expression.text);
    }
    if (ts.isPropertyAssignment(node) && UI_PROPERTIES.has(node.name.getText()) && ts.isStringLiteralLike(node.initializer) && hasWords(node.initializer.text)) {
      report(node, node.initializer.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

test('the check finds literal texts in JSX, UI attributes and notices', () => {
  const sample = `const a = <p title="Close it">Oops! Page not found</p>;\nnotify({ title: 'Error', description: 'Failed' });\nconst b = <Input placeholder="https://gate.example.com" aria-label={t('x')} />;`;
  expect(literalTexts(join(SOURCE_ROOT, 'sample.tsx'), sample).map((line) => line.replace(/^\S+ /, ''))).toEqual(['Close it', 'Oops! Page not found', 'Error', 'Failed']);
});

test('no source file passes a literal text to the UI', () => {
  const found = sourceFiles(SOURCE_ROOT).flatMap((path) => literalTexts(path, readFileSync(path, 'utf8')));
  expect(found).toEqual([]);
});
