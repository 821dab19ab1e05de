/**
 * The runtime the project runs on (docs/decisions/017): Node 24 LTS from the `node` devDependency,
 * which npm puts first on PATH for every script (`npm test`, `npm start`, the admin CLI), whatever
 * Node the machine itself has.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const rootPackage: { engines: { node: string }; devDependencies: Record<string, string> } = JSON.parse(
  readFileSync(`${ROOT}package.json`, 'utf8'),
);

test('npm scripts run on the pinned Node 24 LTS from the node devDependency, not the machine Node', () => {
  const pinned = rootPackage.devDependencies.node;
  expect(pinned).toMatch(/^24\.\d+\.\d+$/);
  expect(process.versions.node).toBe(pinned);
  const binary = execFileSync(`${ROOT}node_modules/.bin/node`, ['--version'], { encoding: 'utf8' }).trim();
  expect(binary).toBe(`v${pinned}`);
});

test('the engines field admits the pinned runtime and only the Node 24 line', () => {
  expect(rootPackage.engines.node).toBe('>=24.11 <25');
  const [major, minor] = process.versions.node.split('.').map(Number);
  expect(major).toBe(24);
  expect(minor).toBeGreaterThanOrEqual(11);
});

test('a child process started the way our tests and the server start it (process.execPath) is Node 24 too', () => {
  const version = execFileSync(process.execPath, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  expect(version).toBe(rootPackage.devDependencies.node);
});
