/**
 * The native release builds (decision 092, docs/native.md "Release builds"), for a machine with the
 * Android SDK or Xcode: our own machines and CI have neither, so there this script stops at once,
 * saying what is missing. `npm run native:android:debug | native:android:release | native:ios:archive`
 * run `native:sync` first, then this script with the target.
 *
 * - `android-debug`: `./gradlew assembleDebug` → app-debug.apk (debug-signed, for `adb install`).
 * - `android-release`: `./gradlew bundleRelease assembleRelease` → app-release.aab (Play Store) and
 *   app-release.apk, signed by app/build.gradle's `signingConfigs.release` with the upload key the
 *   GATECHECK_ANDROID_* environment variables name (never committed).
 * - `ios-archive`: `xcodebuild archive` of the App scheme → ios/build/App.xcarchive, signed
 *   automatically for the team GATECHECK_IOS_TEAM_ID (with an App Store Connect API key from
 *   GATECHECK_IOS_API_KEY_* where Xcode has no account), or unsigned with GATECHECK_IOS_UNSIGNED=1;
 *   Xcode's Organizer or `xcodebuild -exportArchive` turns a signed one into an IPA for TestFlight.
 *
 * Before building, both projects must carry apps/web/package.json's version (scripts/native-version.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readVersionFiles, versionChecks } from './native-version.ts';

export const NATIVE_BUILD_TARGETS = ['android-debug', 'android-release', 'ios-archive'] as const;
export type NativeBuildTarget = (typeof NATIVE_BUILD_TARGETS)[number];

/** The environment variables of the Android upload key (app/build.gradle's `signingConfigs.release`). */
export const ANDROID_SIGNING_VARIABLES = ['GATECHECK_ANDROID_KEYSTORE', 'GATECHECK_ANDROID_KEYSTORE_PASSWORD', 'GATECHECK_ANDROID_KEY_ALIAS', 'GATECHECK_ANDROID_KEY_PASSWORD'] as const;

/** The Apple developer team that signs the iOS archive. */
export const IOS_TEAM_VARIABLE = 'GATECHECK_IOS_TEAM_ID';

/** Set to 1: an unsigned iOS archive (CI without signing secrets: proves the project compiles). */
export const IOS_UNSIGNED_VARIABLE = 'GATECHECK_IOS_UNSIGNED';

/**
 * An App Store Connect API key (.p8 path, key id, issuer id) for Xcode's automatic signing on a
 * machine with no Apple ID signed in to Xcode (a CI runner); optional elsewhere.
 */
export const IOS_API_KEY_VARIABLES = ['GATECHECK_IOS_API_KEY_PATH', 'GATECHECK_IOS_API_KEY_ID', 'GATECHECK_IOS_API_ISSUER_ID'] as const;

/** One command to run, in `cwd` (relative to the repository root), and what it makes. */
export interface NativeBuildPlan {
  command: string;
  args: string[];
  cwd: string;
  /** The files it produces, relative to the repository root. */
  outputs: string[];
}

/** What the machine lacks for a build, each in plain words. */
export class NativeBuildSetupError extends Error {
  constructor(readonly missing: string[]) {
    super(`This machine cannot make this build:\n${missing.map((line) => `  - ${line}`).join('\n')}\nSee docs/native.md "Release builds".`);
    this.name = 'NativeBuildSetupError';
  }
}

/** What `planNativeBuild` needs to know of the machine. */
export interface BuildMachine {
  env: Record<string, string | undefined>;
  /** `process.platform`. */
  platform: string;
  /** Whether `program` is on PATH. */
  hasProgram(program: string): boolean;
  /** Whether `path` exists. */
  exists(path: string): boolean;
}

/**
 * The command for `target` on `machine`.
 * @throws NativeBuildSetupError naming everything missing: the Android SDK (ANDROID_HOME or
 *   ANDROID_SDK_ROOT), a JDK (java), the signing variables; macOS, xcodebuild, the team id.
 */
export function planNativeBuild(target: NativeBuildTarget, machine: BuildMachine): NativeBuildPlan {
  const missing: string[] = [];
  const { env } = machine;
  if (target === 'ios-archive') {
    const isUnsigned = env[IOS_UNSIGNED_VARIABLE] === '1';
    if (machine.platform !== 'darwin') missing.push('macOS (an iOS archive is built by Xcode, which runs only there)');
    if (!machine.hasProgram('xcodebuild')) missing.push('xcodebuild (Xcode 16 or newer, with its command-line tools)');
    if (!machine.hasProgram('pod')) missing.push('CocoaPods (`pod`), which `npm run native:sync` runs on a Mac');
    if (!isUnsigned && !env[IOS_TEAM_VARIABLE]) missing.push(`${IOS_TEAM_VARIABLE}: the Apple developer team id that signs the app (or ${IOS_UNSIGNED_VARIABLE}=1 for an unsigned archive)`);
    const apiKey = IOS_API_KEY_VARIABLES.map((name) => env[name]);
    const hasApiKey = apiKey.every(Boolean);
    if (!hasApiKey && apiKey.some(Boolean)) missing.push(`all of ${IOS_API_KEY_VARIABLES.join(', ')} (an App Store Connect API key), or none`);
    if (missing.length > 0) throw new NativeBuildSetupError(missing);
    const signing = isUnsigned
      ? ['CODE_SIGNING_ALLOWED=NO']
      : [
          '-allowProvisioningUpdates',
          ...(hasApiKey ? ['-authenticationKeyPath', apiKey[0] ?? '', '-authenticationKeyID', apiKey[1] ?? '', '-authenticationKeyIssuerID', apiKey[2] ?? ''] : []),
          `DEVELOPMENT_TEAM=${env[IOS_TEAM_VARIABLE]}`,
          'CODE_SIGN_STYLE=Automatic',
        ];
    return {
      command: 'xcodebuild',
      args: ['-workspace', 'App/App.xcworkspace', '-scheme', 'App', '-configuration', 'Release', '-destination', 'generic/platform=iOS', '-archivePath', 'build/App.xcarchive', ...signing, 'archive'],
      cwd: 'apps/web/ios',
      outputs: ['apps/web/ios/build/App.xcarchive'],
    };
  }
  const sdk = env.ANDROID_HOME || env.ANDROID_SDK_ROOT;
  if (!sdk || !machine.exists(sdk)) missing.push('the Android SDK (platform 36): set ANDROID_HOME to its directory');
  if (!machine.hasProgram('java') && !env.JAVA_HOME) missing.push('a JDK 21 (java on PATH, or JAVA_HOME)');
  if (target === 'android-release') {
    for (const name of ANDROID_SIGNING_VARIABLES) if (!env[name]) missing.push(`${name}: the upload key${name === 'GATECHECK_ANDROID_KEYSTORE' ? "'s keystore file (an absolute path)" : ''}`);
    const keystore = env.GATECHECK_ANDROID_KEYSTORE;
    if (keystore && !machine.exists(keystore)) missing.push(`the keystore ${keystore} (GATECHECK_ANDROID_KEYSTORE) does not exist`);
  }
  if (missing.length > 0) throw new NativeBuildSetupError(missing);
  const outputs = 'apps/web/android/app/build/outputs';
  return target === 'android-debug'
    ? { command: './gradlew', args: ['assembleDebug'], cwd: 'apps/web/android', outputs: [`${outputs}/apk/debug/app-debug.apk`] }
    : {
        command: './gradlew',
        args: ['bundleRelease', 'assembleRelease'],
        cwd: 'apps/web/android',
        outputs: [`${outputs}/bundle/release/app-release.aab`, `${outputs}/apk/release/app-release.apk`],
      };
}

/** This machine, as `planNativeBuild` sees it. */
export function thisMachine(): BuildMachine {
  const path = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return {
    env: process.env,
    platform: process.platform,
    hasProgram: (program) => path.some((dir) => existsSync(join(dir, program))),
    exists: existsSync,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = new URL('..', import.meta.url).pathname;
  const target = process.argv[2] as NativeBuildTarget;
  if (!NATIVE_BUILD_TARGETS.includes(target)) {
    console.error(`Usage: tsx scripts/native-build.ts <${NATIVE_BUILD_TARGETS.join('|')}>`);
    process.exit(2);
  }
  const files = readVersionFiles(root);
  const stale = versionChecks(files.version, files.gradle, files.pbxproj).filter((entry) => !entry.ok);
  if (stale.length > 0) {
    console.error(stale.map((entry) => `${entry.description}: ${entry.detail}`).join('\n'));
    process.exit(1);
  }
  let plan: NativeBuildPlan;
  try {
    plan = planNativeBuild(target, thisMachine());
  } catch (error) {
    console.error(error instanceof NativeBuildSetupError ? error.message : error);
    process.exit(1);
  }
  console.log(`${plan.cwd}$ ${plan.command} ${plan.args.join(' ')}`);
  const result = spawnSync(plan.command, plan.args, { cwd: join(root, plan.cwd), stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  console.log(`\nBuilt version ${files.version}:\n${plan.outputs.map((output) => `  ${output}`).join('\n')}`);
}
