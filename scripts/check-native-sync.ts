/**
 * Checks the native projects after `npm run native:sync` (issue 9, decision 029): run by `.ci/run`
 * as `npm run native:check`, on a machine without the Android SDK or Xcode. It proves that what a
 * phone build would package is complete:
 *
 * - the web build: `apps/web/dist/index.html` is the one copied into Android's `assets/public` and
 *   iOS's `App/public`, with every file of `dist/` present in both;
 * - the config: the copied `capacitor.config.json` of both platforms is `apps/web/capacitor.config.json`
 *   (plus iOS's generated `packageClassList`);
 * - every Capacitor plugin among apps/web's dependencies (a package.json with a `capacitor` field):
 *   Android `capacitor.plugins.json` and `capacitor.settings.gradle`; iOS `Podfile` (its podspec's
 *   name) and `packageClassList` (its Swift `CAPPlugin` class);
 * - the camera permission: `android.permission.CAMERA` in AndroidManifest.xml and a non-empty
 *   `NSCameraUsageDescription` in Info.plist; `NSPhotoLibraryAddUsageDescription` for the share
 *   sheet's 'Save Image' (decision 144);
 * - the app id: `applicationId`/`namespace` in app/build.gradle and `PRODUCT_BUNDLE_IDENTIFIER` in
 *   the Xcode project equal capacitor.config.json's `appId`;
 * - what a first build or install would trip on (scripts/native-checks.ts, decision 091): the iOS
 *   deployment target ML Kit needs, Android's network security config (user-installed certificates,
 *   cleartext as docs/native.md allows) and backup rules, the bridge stand-in's plugin methods
 *   against the plugins' own Android `@PluginMethod`s, the release workflow and the app's version
 *   in both projects (decision 092).
 *
 * Prints one line per check; exits 1 when any fails, naming what is missing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  BASE_PLUGIN_JAVA,
  backupChecks,
  iosDeploymentTargetChecks,
  networkSecurityChecks,
  pluginAndroidJava,
  pluginMethodChecks,
  signingChecks,
  standInPluginHeaders,
  workflowChecks,
  type Finding,
} from './native-checks.ts';
import { readVersionFiles, versionChecks } from './native-version.ts';

const root = new URL('..', import.meta.url).pathname;
const web = join(root, 'apps/web');
const androidApp = join(web, 'android/app');
const androidAssets = join(androidApp, 'src/main/assets');
const iosApp = join(web, 'ios/App/App');

const problems: string[] = [];
function check(description: string, ok: boolean, detail = ''): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${description}${ok || !detail ? '' : `: ${detail}`}`);
  if (!ok) problems.push(description + (detail ? `: ${detail}` : ''));
}

const report = (findings: Finding[]) => findings.forEach((entry) => check(entry.description, entry.ok, entry.detail));

const read = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');
const readOrNull = (path: string): string | null => (existsSync(path) ? readFileSync(path, 'utf8') : null);
const readJson = <T>(path: string): T | null => {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return null;
  }
};
const walk = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)])) : [];
const listFiles = (dir: string) => walk(dir).map((path) => relative(dir, path));

// ---- The web build, copied into both projects.
const dist = join(web, 'dist');
const distFiles = listFiles(dist);
check('the web app is built (apps/web/dist/index.html)', distFiles.includes('index.html'));
for (const [platform, publicDir] of [
  ['Android', join(androidAssets, 'public')],
  ['iOS', join(iosApp, 'public')],
] as const) {
  const copied = new Set(listFiles(publicDir));
  const missing = distFiles.filter((file) => !copied.has(file));
  check(`${platform} holds every file of the web build`, distFiles.length > 0 && missing.length === 0, `${missing.length} missing, e.g. ${missing.slice(0, 3).join(', ')}`);
  check(`${platform} holds this web build (same index.html)`, read(join(publicDir, 'index.html')) === read(join(dist, 'index.html')) && distFiles.length > 0);
}

// ---- The Capacitor config.
interface CapConfig {
  appId: string;
  packageClassList?: string[];
  [key: string]: unknown;
}
const config = readJson<CapConfig>(join(web, 'capacitor.config.json'));
if (!config) throw new Error('apps/web/capacitor.config.json is missing or not JSON');
const androidConfig = readJson<CapConfig>(join(androidAssets, 'capacitor.config.json'));
const iosConfig = readJson<CapConfig>(join(iosApp, 'capacitor.config.json'));
const withoutClassList = (value: CapConfig | null) => {
  if (!value) return null;
  const { packageClassList: _list, ...rest } = value;
  return JSON.stringify(rest);
};
check('Android has the current capacitor.config.json', withoutClassList(androidConfig) === JSON.stringify(config));
check('iOS has the current capacitor.config.json', withoutClassList(iosConfig) === JSON.stringify(config));

// ---- Every plugin.
interface PackageJson {
  dependencies?: Record<string, string>;
  capacitor?: { android?: { src?: string }; ios?: { src?: string } };
}
const webPackage = readJson<PackageJson>(join(web, 'package.json'));
const packageDir = (name: string) => join(root, 'node_modules', name);
const plugins = Object.keys(webPackage?.dependencies ?? {}).filter((name) => readJson<PackageJson>(join(packageDir(name), 'package.json'))?.capacitor);
check('apps/web depends on Capacitor plugins', plugins.length > 0, 'none found');

const androidPlugins = new Set((readJson<Array<{ pkg: string }>>(join(androidAssets, 'capacitor.plugins.json')) ?? []).map((entry) => entry.pkg));
const settingsGradle = read(join(web, 'android/capacitor.settings.gradle'));
const podfile = read(join(web, 'ios/App/Podfile'));
const classList = new Set(iosConfig?.packageClassList ?? []);
for (const plugin of plugins) {
  check(`Android capacitor.plugins.json lists ${plugin}`, androidPlugins.has(plugin));
  const gradleProject = plugin.replace(/^@/, '').replace('/', '-');
  check(`Android capacitor.settings.gradle includes ${plugin}`, settingsGradle.includes(`include ':${gradleProject}'`));
  const podspec = readdirSync(packageDir(plugin)).find((name) => name.endsWith('.podspec'));
  const pod = podspec?.replace(/\.podspec$/, '');
  check(`iOS Podfile has the pod of ${plugin}`, pod !== undefined && podfile.includes(`pod '${pod}'`), pod ?? 'no podspec');
  const swiftClasses = walk(join(packageDir(plugin), 'ios'))
    .filter((path) => path.endsWith('.swift'))
    .flatMap((path) => [...read(path).matchAll(/class (\w+)\s*:\s*CAPPlugin\b/g)].map((match) => match[1] ?? ''));
  check(`iOS packageClassList has the plugin class of ${plugin}`, swiftClasses.some((name) => classList.has(name)), swiftClasses.join(', ') || 'no CAPPlugin class');
}

// ---- Camera permission.
const manifest = read(join(androidApp, 'src/main/AndroidManifest.xml'));
check('AndroidManifest.xml asks for android.permission.CAMERA', /<uses-permission\s+android:name="android\.permission\.CAMERA"\s*\/>/.test(manifest));
const usage = /<key>NSCameraUsageDescription<\/key>\s*<string>([^<]*)<\/string>/.exec(read(join(iosApp, 'Info.plist')))?.[1]?.trim() ?? '';
check('Info.plist explains the camera (NSCameraUsageDescription)', usage.length >= 20, `"${usage}"`);
// The share sheet's 'Save Image' (a QR PNG, decision 144) crashes an app without this string.
const photosUsage = /<key>NSPhotoLibraryAddUsageDescription<\/key>\s*<string>([^<]*)<\/string>/.exec(read(join(iosApp, 'Info.plist')))?.[1]?.trim() ?? '';
check('Info.plist explains saving to photos (NSPhotoLibraryAddUsageDescription)', photosUsage.length >= 20, `"${photosUsage}"`);

// ---- App id.
const gradle = read(join(androidApp, 'build.gradle'));
check(`Android applicationId is ${config.appId}`, gradle.includes(`applicationId "${config.appId}"`));
check(`Android namespace is ${config.appId}`, gradle.includes(`namespace = "${config.appId}"`));
const bundleIds = [...read(join(web, 'ios/App/App.xcodeproj/project.pbxproj')).matchAll(/PRODUCT_BUNDLE_IDENTIFIER = ([^;]+);/g)].map((match) => match[1]);
check(`iOS bundle identifier is ${config.appId}`, bundleIds.length > 0 && bundleIds.every((id) => id === config.appId), bundleIds.join(', '));

// ---- What a first build would fail on (decision 091).
const pbxproj = read(join(web, 'ios/App/App.xcodeproj/project.pbxproj'));
report(iosDeploymentTargetChecks(podfile, pbxproj));
const androidXml = join(androidApp, 'src/main/res/xml');
report(networkSecurityChecks(manifest, readOrNull(join(androidXml, 'network_security_config.xml'))));
report(backupChecks(manifest, readOrNull(join(androidXml, 'data_extraction_rules.xml'))));

const pluginJava = plugins.map((plugin) => ({ packageName: plugin, java: pluginAndroidJava(packageDir(plugin)) }));
report(pluginMethodChecks(standInPluginHeaders(), pluginJava, read(join(packageDir('@capacitor/android'), BASE_PLUGIN_JAVA))));

// ---- Release builds (decision 092): signing from the environment, one version, the hosted workflow.
report(signingChecks(gradle, read(join(web, 'android/.gitignore'))));
const versionFiles = readVersionFiles(root);
report(versionChecks(versionFiles.version, versionFiles.gradle, versionFiles.pbxproj));
const rootPackage = readJson<{ scripts?: Record<string, string> }>(join(root, 'package.json'));
report(workflowChecks(readOrNull(join(root, '.github/workflows/native.yml')), rootPackage?.scripts ?? {}));

if (problems.length > 0) {
  console.error(`\n${problems.length} native sync check(s) failed. Run \`npm run native:sync\`, then this again.`);
  process.exit(1);
}
console.log(`\nThe Android and iOS projects hold the web build, ${plugins.length} plugins, the camera permission and app id ${config.appId}.`);
