/**
 * One version number for both native apps (decision 092): apps/web/package.json's `version`
 * (x.y.z) is the source; this script writes it into
 * - Android (apps/web/android/app/build.gradle): `versionName "x.y.z"`, `versionCode N`;
 * - iOS (the Xcode project): `MARKETING_VERSION = x.y.z` (CFBundleShortVersionString) and
 *   `CURRENT_PROJECT_VERSION = N` (CFBundleVersion), in every build configuration;
 * where N = x·1,000,000 + y·1,000 + z, so every higher version has a higher build number, as both
 * stores require of each upload.
 *
 * `npm run native:version` writes the files (after `npm version <patch|minor|major> -w @gatecheck/web`);
 * `npm run native:check` and the build scripts fail when they do not match package.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding } from './native-checks.ts';

/** The two forms of one version: what people read, and the stores' increasing integer. */
export interface NativeVersion {
  /** x.y.z: versionName, MARKETING_VERSION / CFBundleShortVersionString. */
  name: string;
  /** x·1,000,000 + y·1,000 + z: versionCode, CURRENT_PROJECT_VERSION / CFBundleVersion. */
  code: number;
}

/**
 * The native version of a package.json `version`.
 * @throws Error when it is not plain x.y.z (no pre-release or build tag: neither store takes one),
 *   or y or z is 1000 or more, or x is 2100 or more (Google Play's versionCode limit is 2,100,000,000).
 */
export function nativeVersion(version: string): NativeVersion {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!match) throw new Error(`The app version "${version}" is not x.y.z: the stores take no pre-release or build tags.`);
  const [major, minor, patch] = match.slice(1).map(Number) as [number, number, number];
  if (minor > 999 || patch > 999) throw new Error(`The app version "${version}" has a part above 999: the build number would not grow with it.`);
  if (major > 2099) throw new Error(`The app version "${version}" is beyond Google Play's versionCode limit (major 2099).`);
  return { name: version, code: major * 1_000_000 + minor * 1_000 + patch };
}

/** `gradle` (app/build.gradle) with its versionCode and versionName set to `version`. */
export function withAndroidVersion(gradle: string, version: NativeVersion): string {
  return gradle.replace(/(\bversionCode\s+)\d+/, `$1${version.code}`).replace(/(\bversionName\s+)"[^"]*"/, `$1"${version.name}"`);
}

/** `pbxproj` (the Xcode project) with every MARKETING_VERSION and CURRENT_PROJECT_VERSION set to `version`. */
export function withIosVersion(pbxproj: string, version: NativeVersion): string {
  return pbxproj
    .replace(/(MARKETING_VERSION = )[^;]+;/g, `$1${version.name};`)
    .replace(/(CURRENT_PROJECT_VERSION = )[^;]+;/g, `$1${version.code};`);
}

/** Whether both projects carry `version` (package.json's): one finding per platform. */
export function versionChecks(version: string, gradle: string, pbxproj: string): Finding[] {
  let expected: NativeVersion;
  try {
    expected = nativeVersion(version);
  } catch (error) {
    return [{ description: 'apps/web/package.json has a version the stores take', ok: false, detail: (error as Error).message }];
  }
  const androidCode = /\bversionCode\s+(\d+)/.exec(gradle)?.[1];
  const androidName = /\bversionName\s+"([^"]*)"/.exec(gradle)?.[1];
  const marketing = [...new Set([...pbxproj.matchAll(/MARKETING_VERSION = ([^;]+);/g)].map((match) => match[1]))];
  const build = [...new Set([...pbxproj.matchAll(/CURRENT_PROJECT_VERSION = ([^;]+);/g)].map((match) => match[1]))];
  const hint = ' (run `npm run native:version`)';
  return [
    {
      description: `Android versionName/versionCode are ${expected.name}/${expected.code} (apps/web/package.json)`,
      ok: androidName === expected.name && androidCode === String(expected.code),
      detail: `${androidName}/${androidCode}${hint}`,
    },
    {
      description: `iOS MARKETING_VERSION/CURRENT_PROJECT_VERSION are ${expected.name}/${expected.code} (apps/web/package.json)`,
      ok: marketing.length === 1 && marketing[0] === expected.name && build.length === 1 && build[0] === String(expected.code),
      detail: `${marketing.join(', ')}/${build.join(', ')}${hint}`,
    },
  ];
}

/** The files this script reads and writes, under the repository root. */
export const VERSION_FILES = {
  package: 'apps/web/package.json',
  gradle: 'apps/web/android/app/build.gradle',
  pbxproj: 'apps/web/ios/App/App.xcodeproj/project.pbxproj',
} as const;

/** Reads the three files under `root`. */
export function readVersionFiles(root: string): { version: string; gradle: string; pbxproj: string } {
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  const { version } = JSON.parse(read(VERSION_FILES.package)) as { version: string };
  return { version, gradle: read(VERSION_FILES.gradle), pbxproj: read(VERSION_FILES.pbxproj) };
}

/** Writes package.json's version into both projects under `root`; returns it. @throws as `nativeVersion`. */
export function writeNativeVersion(root: string): NativeVersion {
  const files = readVersionFiles(root);
  const version = nativeVersion(files.version);
  writeFileSync(join(root, VERSION_FILES.gradle), withAndroidVersion(files.gradle, version));
  writeFileSync(join(root, VERSION_FILES.pbxproj), withIosVersion(files.pbxproj, version));
  return version;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = new URL('..', import.meta.url).pathname;
  try {
    const version = writeNativeVersion(root);
    console.log(`Android and iOS are at version ${version.name} (build ${version.code}).`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
