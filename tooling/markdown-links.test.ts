/**
 * Every relative link in the repository's Markdown resolves inside the repository (issue 15 item 12):
 * a reader of a checkout, a release tarball or the GitHub page must never meet a link to a file that
 * only exists on one machine (`../../../shared/SPEC.md`). Checked: Markdown links and images,
 * reference definitions, and `src`/`href` attributes of inline HTML (`<img src=…>`). A `#heading`
 * anchor into a Markdown file must name one of its headings (GitHub's slugs, `github-slugger`).
 * Links with a scheme (`https:`, `mailto:`) are not checked: no network here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString as textOf } from 'mdast-util-to-string';
import { visit } from 'unist-util-visit';
import { describe, expect, test } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Folders that hold installed or generated files, never our documentation (see .gitignore). */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'data', 'test-results', 'playwright-report', 'artifacts', '.vite', 'coverage']);

/** Every `*.md` file under `dir` (absolute paths), outside SKIPPED_DIRS. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The link targets of one Markdown document, in document order. */
function linkTargets(tree: Root): string[] {
  const targets: string[] = [];
  visit(tree, (node) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') targets.push(node.url);
    if (node.type === 'html') {
      for (const match of node.value.matchAll(/\b(?:src|href)\s*=\s*(["'])(.*?)\1/gi)) targets.push(match[2] ?? '');
    }
  });
  return targets;
}

/** GitHub's anchors of a Markdown document's headings (`## Start it` → `start-it`). */
function headingAnchors(tree: Root): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  visit(tree, 'heading', (heading) => {
    anchors.add(slugger.slug(textOf(heading)));
  });
  return anchors;
}

/** Reads the files the checker needs, relative to nothing: absolute paths in, text or presence out. */
interface FileSystemView {
  isFile(absolutePath: string): boolean;
  isDirectory(absolutePath: string): boolean;
  read(absolutePath: string): string;
}

/**
 * Every broken link of `file` (absolute path of a Markdown file under `root`), one line each:
 * a relative target outside `root`, a missing file, or an anchor that names no heading.
 */
function brokenLinks(file: string, root: string, fs: FileSystemView): string[] {
  const problems: string[] = [];
  const tree = fromMarkdown(fs.read(file));
  const where = path.relative(root, file);
  for (const target of linkTargets(tree)) {
    // A scheme (https:, mailto:, data:) or a protocol-relative URL: not a file of ours.
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
    const [rawPath = '', anchor] = target.split('#', 2);
    const decodedPath = decodeURIComponent(rawPath.split('?')[0] ?? '');
    const resolved = decodedPath === '' ? file : decodedPath.startsWith('/') ? path.join(root, decodedPath) : path.resolve(path.dirname(file), decodedPath);
    const insideRoot = path.relative(root, resolved);
    if (insideRoot.startsWith('..') || path.isAbsolute(insideRoot)) {
      problems.push(`${where}: ${target} points outside the repository`);
      continue;
    }
    if (!fs.isFile(resolved) && !fs.isDirectory(resolved)) {
      problems.push(`${where}: ${target} does not exist`);
      continue;
    }
    if (anchor !== undefined && anchor !== '' && resolved.endsWith('.md') && !headingAnchors(fromMarkdown(fs.read(resolved))).has(anchor)) {
      problems.push(`${where}: ${target} names no heading of ${path.relative(root, resolved)}`);
    }
  }
  return problems;
}

const onDisk: FileSystemView = {
  isFile: (absolutePath) => existsSync(absolutePath) && statSync(absolutePath).isFile(),
  isDirectory: (absolutePath) => existsSync(absolutePath) && statSync(absolutePath).isDirectory(),
  read: (absolutePath) => readFileSync(absolutePath, 'utf8'),
};

test('every relative link in the repository\'s Markdown resolves to a file inside the repository', () => {
  const files = markdownFiles(repoRoot);
  expect(files.map((file) => path.relative(repoRoot, file))).toContain('README.md');
  expect(files.flatMap((file) => brokenLinks(file, repoRoot, onDisk))).toEqual([]);
});

describe('the link checker', () => {
  const root = '/repo';
  const files: Record<string, string> = {
    '/repo/README.md': '# Gatecheck\n\n## Start it\n\nText.\n',
    '/repo/docs/SPEC.md': '# Specification\n\n## 2. Screens and routes\n',
    '/repo/docs/screenshots/a.png': '',
  };
  const fs: FileSystemView = {
    isFile: (absolutePath) => absolutePath in files,
    isDirectory: (absolutePath) => Object.keys(files).some((file) => file.startsWith(`${absolutePath}/`)),
    read: (absolutePath) => files[absolutePath] ?? '',
  };
  const check = (markdown: string) => {
    files['/repo/apps/web/README.md'] = markdown;
    return brokenLinks('/repo/apps/web/README.md', root, fs);
  };

  test('links to files and headings inside the repository pass', () => {
    expect(
      check(
        '[spec](../../docs/SPEC.md), [routes](../../docs/SPEC.md#2-screens-and-routes), [start](/README.md#start-it), ' +
          '![shot](../../docs/screenshots/a.png), [docs](../../docs/), <https://example.com>, [mail](mailto:a@b.c)\n\n' +
          '[ref]: ../../README.md\n\n<p><img src="../../docs/screenshots/a.png" alt=""></p>\n',
      ),
    ).toEqual([]);
  });

  test('a link that leaves the repository is refused even when the file exists on this machine', () => {
    expect(check('What it must do is [SPEC](../../../shared/SPEC.md).\n')).toEqual(['apps/web/README.md: ../../../shared/SPEC.md points outside the repository']);
  });

  test('a missing file, a missing image in HTML and an unknown heading are refused', () => {
    expect(check('[gone](../../docs/gone.md) <img src="../../docs/screenshots/b.png">\n\n[bad](../../README.md#stop-it)\n')).toEqual([
      'apps/web/README.md: ../../docs/gone.md does not exist',
      'apps/web/README.md: ../../docs/screenshots/b.png does not exist',
      'apps/web/README.md: ../../README.md#stop-it names no heading of README.md',
    ]);
  });
});
