/**
 * The native release builds (decision 092): one version number written into both projects
 * (scripts/native-version.ts), signing from the environment (app/build.gradle, checked by
 * scripts/native-checks.ts), and the build commands with what each needs
 * (scripts/native-build.ts), on a machine that has none of the SDKs.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { NativeBuildSetupError, planNativeBuild, type BuildMachine } from '../scripts/native-build.ts';
import { signingChecks, type Finding } from '../scripts/native-checks.ts';
import { nativeVersion, readVersionFiles, VERSION_FILES, versionChecks, withAndroidVersion, withIosVersion, writeNativeVersion } from '../scripts/native-version.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const failed = (findings: Finding[]) => findings.filter((entry) => !entry.ok).map((entry) => entry.description);

describe('one version number', () => {
  test('x.y.z gives a build number that grows with every version', () => {
    expect(nativeVersion('0.1.0')).toEqual({ name: '0.1.0', code: 1_000 });
    expect(nativeVersion('1.2.3')).toEqual({ name: '1.2.3', code: 1_002_003 });
    const ordered = ['0.9.999', '1.0.0', '1.0.1', '1.1.0', '2.0.0', '2099.999.999'].map((version) => nativeVersion(version).code);
    expect(ordered).toEqual([...ordered].sort((a, b) => a - b));
    expect(new Set(ordered).size).toBe(ordered.length);
    expect(nativeVersion('2099.999.999').code).toBeLessThanOrEqual(2_100_000_000);
  });

  test('a version the stores would refuse, or whose build number would not grow, is an error that says why', () => {
    expect(() => nativeVersion('1.0.0-beta.1')).toThrow(/not x\.y\.z/);
    expect(() => nativeVersion('1.0')).toThrow(/not x\.y\.z/);
    expect(() => nativeVersion('1.1000.0')).toThrow(/above 999/);
    expect(() => nativeVersion('2100.0.0')).toThrow(/versionCode limit/);
  });

  test('the committed projects carry apps/web/package.json version', () => {
    const files = readVersionFiles(ROOT);
    expect(failed(versionChecks(files.version, files.gradle, files.pbxproj))).toEqual([]);
    expect(files.gradle).toContain(`versionCode ${nativeVersion(files.version).code}`);
  });

  test("the script writes one version into Android's versionCode/versionName and every iOS build configuration", () => {
    const copy = mkdtempSync(join(tmpdir(), 'native-version-'));
    try {
      for (const path of Object.values(VERSION_FILES)) {
        mkdirSync(dirname(join(copy, path)), { recursive: true });
        cpSync(join(ROOT, path), join(copy, path));
      }
      const packageJson = JSON.parse(read(VERSION_FILES.package)) as Record<string, unknown>;
      writeFileSync(join(copy, VERSION_FILES.package), JSON.stringify({ ...packageJson, version: '1.4.2' }));

      // Before the script runs, the copy's projects are stale: the check says so for both.
      const stale = readVersionFiles(copy);
      expect(failed(versionChecks(stale.version, stale.gradle, stale.pbxproj))).toHaveLength(2);

      expect(writeNativeVersion(copy)).toEqual({ name: '1.4.2', code: 1_004_002 });
      const written = readVersionFiles(copy);
      expect(failed(versionChecks(written.version, written.gradle, written.pbxproj))).toEqual([]);
      expect(written.gradle).toMatch(/versionCode 1004002\n\s+versionName "1\.4\.2"/);
      expect([...written.pbxproj.matchAll(/MARKETING_VERSION = ([^;]+);/g)].map((match) => match[1])).toEqual(['1.4.2', '1.4.2']);
      expect([...written.pbxproj.matchAll(/CURRENT_PROJECT_VERSION = ([^;]+);/g)].map((match) => match[1])).toEqual(['1004002', '1004002']);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  test('a project edited by hand (one iOS configuration, or Android alone) fails the check', () => {
    const files = readVersionFiles(ROOT);
    const version = nativeVersion(files.version);
    const oneConfigurationOff = files.pbxproj.replace(`CURRENT_PROJECT_VERSION = ${version.code};`, 'CURRENT_PROJECT_VERSION = 7;');
    expect(failed(versionChecks(files.version, files.gradle, oneConfigurationOff))).toEqual([expect.stringMatching(/^iOS /)]);
    const androidAhead = withAndroidVersion(files.gradle, nativeVersion('9.0.0'));
    expect(failed(versionChecks(files.version, androidAhead, withIosVersion(files.pbxproj, version)))).toEqual([expect.stringMatching(/^Android /)]);
  });
});

describe('release signing from the environment', () => {
  const gradle = read('apps/web/android/app/build.gradle');
  const gitignore = read('apps/web/android/.gitignore');

  test('the committed build.gradle signs releases with the GATECHECK_ANDROID_* variables, and keystores are ignored', () => {
    expect(failed(signingChecks(gradle, gitignore))).toEqual([]);
  });

  test('a password written into build.gradle, no signing config, or committed keystores fail', () => {
    const literal = gradle.replace('storePassword = System.getenv("GATECHECK_ANDROID_KEYSTORE_PASSWORD")', 'storePassword = "hunter2"');
    expect(failed(signingChecks(literal, gitignore))).toEqual(['Android release signing reads the upload key from GATECHECK_ANDROID_* environment variables']);
    const template = gradle.replace(/ {4}signingConfigs \{[\s\S]*?\n {4}\}\n/, '').replace(/ {12}if \(System\.getenv\("GATECHECK_ANDROID_KEYSTORE"\)\) \{\n.*\n {12}\}\n/, '');
    expect(failed(signingChecks(template, gitignore))).toEqual([
      'Android release signing reads the upload key from GATECHECK_ANDROID_* environment variables',
      'the release build type is signed by signingConfigs.release',
    ]);
    expect(failed(signingChecks(gradle, gitignore.replace('\n*.jks', '\n#*.jks')))).toEqual(['android/.gitignore keeps keystores out of git (*.jks, *.keystore)']);
  });
});

describe('the build commands', () => {
  const signing = {
    GATECHECK_ANDROID_KEYSTORE: '/keys/upload.jks',
    GATECHECK_ANDROID_KEYSTORE_PASSWORD: 'store',
    GATECHECK_ANDROID_KEY_ALIAS: 'upload',
    GATECHECK_ANDROID_KEY_PASSWORD: 'key',
  };
  const machine = (env: Record<string, string>, platform = 'linux', programs = ['java']): BuildMachine => ({
    env,
    platform,
    hasProgram: (program) => programs.includes(program),
    exists: (path) => ['/sdk', '/keys/upload.jks'].includes(path),
  });
  const missingFor = (...args: Parameters<typeof planNativeBuild>) => {
    try {
      planNativeBuild(...args);
    } catch (error) {
      if (error instanceof NativeBuildSetupError) return error.missing;
      throw error;
    }
    return [];
  };

  test('a machine like ours (no SDK, no Xcode) is told plainly what each build needs', () => {
    expect(missingFor('android-debug', machine({}))).toEqual(['the Android SDK (platform 36): set ANDROID_HOME to its directory']);
    expect(missingFor('android-release', machine({ ANDROID_HOME: '/sdk' }))).toEqual([
      "GATECHECK_ANDROID_KEYSTORE: the upload key's keystore file (an absolute path)",
      'GATECHECK_ANDROID_KEYSTORE_PASSWORD: the upload key',
      'GATECHECK_ANDROID_KEY_ALIAS: the upload key',
      'GATECHECK_ANDROID_KEY_PASSWORD: the upload key',
    ]);
    expect(missingFor('android-release', machine({ ANDROID_HOME: '/sdk', ...signing, GATECHECK_ANDROID_KEYSTORE: '/keys/lost.jks' }))).toEqual([
      'the keystore /keys/lost.jks (GATECHECK_ANDROID_KEYSTORE) does not exist',
    ]);
    expect(missingFor('ios-archive', machine({}))).toHaveLength(4);
  });

  test('with the SDKs: a debug APK, a signed AAB and APK, an iOS archive signed for the team or unsigned', () => {
    expect(planNativeBuild('android-debug', machine({ ANDROID_HOME: '/sdk' }))).toEqual({
      command: './gradlew',
      args: ['assembleDebug'],
      cwd: 'apps/web/android',
      outputs: ['apps/web/android/app/build/outputs/apk/debug/app-debug.apk'],
    });
    const release = planNativeBuild('android-release', machine({ ANDROID_HOME: '/sdk', ...signing }));
    expect(release.args).toEqual(['bundleRelease', 'assembleRelease']);
    expect(release.outputs).toEqual(['apps/web/android/app/build/outputs/bundle/release/app-release.aab', 'apps/web/android/app/build/outputs/apk/release/app-release.apk']);
    const mac = (env: Record<string, string>) => machine(env, 'darwin', ['xcodebuild', 'pod']);
    const signed = planNativeBuild('ios-archive', mac({ GATECHECK_IOS_TEAM_ID: 'ABCDE12345' }));
    expect(signed.command).toBe('xcodebuild');
    expect(signed.args).toEqual(expect.arrayContaining(['-workspace', 'App/App.xcworkspace', '-scheme', 'App', 'DEVELOPMENT_TEAM=ABCDE12345', '-allowProvisioningUpdates', 'archive']));
    expect(signed.args.at(-1)).toBe('archive');
    const unsigned = planNativeBuild('ios-archive', mac({ GATECHECK_IOS_UNSIGNED: '1' }));
    expect(unsigned.args).toContain('CODE_SIGNING_ALLOWED=NO');
    expect(unsigned.args.some((arg) => arg.startsWith('DEVELOPMENT_TEAM'))).toBe(false);
    expect(missingFor('ios-archive', mac({ GATECHECK_IOS_TEAM_ID: 'ABCDE12345', GATECHECK_IOS_API_KEY_ID: 'K' }))).toEqual([
      'all of GATECHECK_IOS_API_KEY_PATH, GATECHECK_IOS_API_KEY_ID, GATECHECK_IOS_API_ISSUER_ID (an App Store Connect API key), or none',
    ]);
  });
});
