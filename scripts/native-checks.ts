/**
 * The checks of `npm run native:check` that a first build on a machine with the SDKs would fail on
 * (decision 091), as functions of the files' text, so that tooling/native-checks.test.ts can feed
 * them a broken project. scripts/check-native-sync.ts reads the real files and prints the results.
 *
 * Each function returns `Finding`s, one per rule: `ok` false names what is wrong in `detail`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { installCapacitorStandIn, STAND_IN_PLUGINS } from '../apps/web/src/test/capacitor-stand-in.ts';

/** One rule's outcome. */
export interface Finding {
  description: string;
  ok: boolean;
  detail?: string;
}

const finding = (description: string, ok: boolean, detail?: string): Finding => (ok ? { description, ok } : { description, ok, detail });

/** XML without its comments, so a commented-out element or attribute never counts. */
const withoutComments = (xml: string) => xml.replace(/<!--[\s\S]*?-->/g, '');

/** The value of attribute `name` (`android:foo`) on the first `<tag …>` in `xml`, or null. */
function attributeOf(xml: string, tag: string, name: string): string | null {
  const element = new RegExp(`<${tag}\\b([^>]*)>`).exec(withoutComments(xml))?.[1];
  if (element === undefined) return null;
  return new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(element)?.[1] ?? null;
}

/** The minimum iOS version `@capacitor-mlkit/barcode-scanning` (GoogleMLKit 8) builds for. */
export const IOS_DEPLOYMENT_TARGET = '15.5';

/**
 * The iOS deployment target: the Podfile's `platform :ios` and every `IPHONEOS_DEPLOYMENT_TARGET` of
 * the Xcode project are `IOS_DEPLOYMENT_TARGET` (`pod install` refuses a lower one for ML Kit).
 */
export function iosDeploymentTargetChecks(podfile: string, pbxproj: string): Finding[] {
  const platform = /^\s*platform\s+:ios,\s*'([\d.]+)'/m.exec(podfile)?.[1] ?? 'none';
  const targets = [...pbxproj.matchAll(/IPHONEOS_DEPLOYMENT_TARGET = ([\d.]+);/g)].map((match) => match[1]);
  return [
    finding(`iOS Podfile's platform is ${IOS_DEPLOYMENT_TARGET}`, platform === IOS_DEPLOYMENT_TARGET, platform),
    finding(
      `iOS project's IPHONEOS_DEPLOYMENT_TARGET is ${IOS_DEPLOYMENT_TARGET} everywhere`,
      targets.length > 0 && targets.every((target) => target === IOS_DEPLOYMENT_TARGET),
      targets.join(', ') || 'none',
    ),
  ];
}

/** The network security config's resource, as AndroidManifest.xml names it. */
export const NETWORK_SECURITY_CONFIG = '@xml/network_security_config';

/**
 * Android's network security config (docs/native.md "Self-signed https on a LAN"): the manifest
 * names it (and not `usesCleartextTraffic`, which it overrides on API 24+), its base config trusts
 * the system's and the user-installed certificates (a door laptop's self-signed certificate), and
 * cleartext is permitted there for the documented private-network http, with no domain allowed
 * more than that.
 */
export function networkSecurityChecks(manifest: string, config: string | null): Finding[] {
  const named = attributeOf(manifest, 'application', 'android:networkSecurityConfig');
  const cleartextAttribute = attributeOf(manifest, 'application', 'android:usesCleartextTraffic');
  const xml = withoutComments(config ?? '');
  const base = /<base-config\b([^>]*)>([\s\S]*?)<\/base-config>/.exec(xml);
  const anchors = /<trust-anchors>([\s\S]*?)<\/trust-anchors>/.exec(base?.[2] ?? '')?.[1] ?? '';
  const sources = [...anchors.matchAll(/<certificates\s+src="(\w+)"/g)].map((match) => match[1]);
  const baseCleartext = /cleartextTrafficPermitted\s*=\s*"(\w+)"/.exec(base?.[1] ?? '')?.[1] ?? 'unset';
  return [
    finding(`AndroidManifest.xml names ${NETWORK_SECURITY_CONFIG}`, named === NETWORK_SECURITY_CONFIG, named ?? 'no android:networkSecurityConfig'),
    finding('AndroidManifest.xml leaves cleartext to the network security config (no usesCleartextTraffic)', cleartextAttribute === null, `usesCleartextTraffic="${cleartextAttribute}"`),
    finding('res/xml/network_security_config.xml has a base-config', config !== null && base !== null, config === null ? 'file missing' : 'no <base-config>'),
    finding('the network security config trusts system and user-installed certificates', sources.includes('system') && sources.includes('user'), sources.join(', ') || 'no trust-anchors'),
    finding('the network security config permits http only as docs/native.md does (base-config, for the private network)', baseCleartext === 'true' && !/<domain-config\b/.test(xml), `base cleartextTrafficPermitted=${baseCleartext}${/<domain-config\b/.test(xml) ? ', plus a domain-config' : ''}`),
  ];
}

/** The backup rules' resource, as AndroidManifest.xml names it. */
export const DATA_EXTRACTION_RULES = '@xml/data_extraction_rules';

/** The storage domains nothing may leave the phone from: the data directory (WebView storage), Preferences, databases, files. */
const EXCLUDED_DOMAINS = ['root', 'sharedpref', 'database', 'file'] as const;

/**
 * Backups (decision 091): `allowBackup` is off, and Android 12+'s data extraction rules (which
 * still apply to device-to-device transfer with backups off) exclude, for both cloud backup and
 * device transfer, the Preferences with the bearer token (sharedpref), the WebView's storage with
 * the offline outbox (root: app_webview), databases and files.
 */
export function backupChecks(manifest: string, rules: string | null): Finding[] {
  const allowBackup = attributeOf(manifest, 'application', 'android:allowBackup');
  const named = attributeOf(manifest, 'application', 'android:dataExtractionRules');
  const xml = withoutComments(rules ?? '');
  const excludedIn = (section: string) => {
    const body = new RegExp(`<${section}\\b[^>]*>([\\s\\S]*?)</${section}>`).exec(xml)?.[1] ?? '';
    if (/<include\b/.test(body)) return [];
    return [...body.matchAll(/<exclude\s+domain="(\w+)"\s+path="\."\s*\/>/g)].map((match) => match[1]);
  };
  const missingIn = (section: string) => EXCLUDED_DOMAINS.filter((domain) => !excludedIn(section).includes(domain));
  return [
    finding('AndroidManifest.xml turns backups off (allowBackup="false")', allowBackup === 'false', `allowBackup="${allowBackup}"`),
    finding(`AndroidManifest.xml names ${DATA_EXTRACTION_RULES}`, named === DATA_EXTRACTION_RULES && rules !== null, rules === null ? 'file missing' : (named ?? 'no android:dataExtractionRules')),
    ...(['cloud-backup', 'device-transfer'] as const).map((section) =>
      finding(`data extraction rules exclude Preferences, WebView storage, databases and files from ${section}`, missingIn(section).length === 0, `not excluded: ${missingIn(section).join(', ')}`),
    ),
  ];
}

/** A plugin method as Java declares it. */
export interface JavaPluginMethod {
  name: string;
  /** 'promise' (the default), 'callback' or 'none'. */
  returnType: string;
}

/**
 * The `@CapacitorPlugin(name = …)` and `@PluginMethod` methods of Java or Kotlin source text (a
 * plugin's classes, or Capacitor's own `Plugin` class, which has no name).
 */
export function javaPluginMethods(java: string): { name: string | null; methods: JavaPluginMethod[] } {
  const source = java.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const name = /@CapacitorPlugin\s*\(\s*name\s*=\s*"(\w+)"/.exec(source)?.[1] ?? null;
  // Java `public void name(`, Kotlin `fun name(` (@capacitor/filesystem is written in Kotlin).
  const methods = [...source.matchAll(/@PluginMethod\b(?:\s*\(([^)]*)\))?\s*(?:@\w+(?:\([^)]*\))?\s*)*(?:public\s+void|fun)\s+(\w+)\s*\(/g)].map((match) => ({
    name: match[2] ?? '',
    returnType: (/RETURN_(\w+)/.exec(match[1] ?? '')?.[1] ?? 'PROMISE').toLowerCase(),
  }));
  return { name, methods };
}

/**
 * The Java and Kotlin source of each file under `packageDir`/android/src/main/java and …/kotlin (a
 * plugin's Android classes).
 */
export function pluginAndroidJava(packageDir: string): string[] {
  const walk = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)])) : [];
  return ['java', 'kotlin']
    .flatMap((language) => walk(join(packageDir, 'android/src/main', language)))
    .filter((path) => path.endsWith('.java') || path.endsWith('.kt'))
    .map((path) => readFileSync(path, 'utf8'));
}

/** The path of Capacitor's own `Plugin` class in @capacitor/android, whose `@PluginMethod`s every plugin has. */
export const BASE_PLUGIN_JAVA = 'capacitor/src/main/java/com/getcapacitor/Plugin.java';

/** A plugin's header as the bridge (or its stand-in) hands it to `@capacitor/core`. */
export interface PluginHeader {
  name: string;
  methods: Array<{ name: string; rtype?: string }>;
}

/** The plugin headers the bridge stand-in hands to Capacitor (installed on a bare object, not a page). */
export function standInPluginHeaders(plugins: Record<string, readonly string[]> = STAND_IN_PLUGINS): PluginHeader[] {
  const bare = {} as typeof globalThis & { Capacitor: { PluginHeaders: PluginHeader[] } };
  const options = { camera: 'granted', cameraOnRequest: 'granted', torch: false, startScanFails: false, preferencesFail: false, prefsPrefix: '' } as const;
  installCapacitorStandIn({ options, plugins }, bare);
  return bare.Capacitor.PluginHeaders;
}

/**
 * The bridge stand-in matches the plugins (src/test/capacitor-stand-in.ts): each plugin the app
 * depends on has a header listing exactly the methods a phone's bridge lists (its Java
 * `@PluginMethod`s and those of Capacitor's `Plugin` class), each promise method as 'promise'; no
 * header for a plugin the app does not have.
 *
 * @param plugins each plugin package with the Java source of its Android classes.
 * @param basePluginJava the source of @capacitor/android's `com/getcapacitor/Plugin.java`.
 */
export function pluginMethodChecks(headers: PluginHeader[], plugins: Array<{ packageName: string; java: string[] }>, basePluginJava: string): Finding[] {
  const inherited = javaPluginMethods(basePluginJava).methods;
  const findings: Finding[] = [finding("Capacitor's Plugin class declares @PluginMethods", inherited.length > 0, 'none found')];
  const named = new Set<string>();
  for (const { packageName, java } of plugins) {
    const parsed = java.map(javaPluginMethods);
    const name = parsed.find((entry) => entry.name !== null)?.name ?? null;
    if (name === null) {
      findings.push(finding(`${packageName} has an Android @CapacitorPlugin class`, false, 'none found'));
      continue;
    }
    named.add(name);
    const own = parsed.flatMap((entry) => entry.methods);
    const expected = new Map([...inherited, ...own].map((method) => [method.name, method.returnType]));
    const header = headers.find((entry) => entry.name === name);
    const listed = new Map((header?.methods ?? []).map((method) => [method.name, method.rtype]));
    const missing = [...expected.keys()].filter((method) => !listed.has(method));
    const extra = [...listed.keys()].filter((method) => !expected.has(method));
    const wrongType = [...expected].filter(([method, type]) => type === 'promise' && listed.has(method) && listed.get(method) !== 'promise').map(([method]) => method);
    findings.push(
      finding(
        `the bridge stand-in lists ${name}'s Android methods (${packageName})`,
        header !== undefined && missing.length === 0 && extra.length === 0 && wrongType.length === 0,
        header === undefined ? 'no header' : [missing.length ? `missing ${missing.join(', ')}` : '', extra.length ? `not on Android: ${extra.join(', ')}` : '', wrongType.length ? `not promises: ${wrongType.join(', ')}` : ''].filter(Boolean).join('; '),
      ),
    );
  }
  const unknown = headers.filter((header) => !named.has(header.name)).map((header) => header.name);
  findings.push(finding('the bridge stand-in has no plugin the app lacks', unknown.length === 0, unknown.join(', ')));
  return findings;
}

/**
 * Android release signing (decision 092): app/build.gradle's `signingConfigs.release` takes the
 * keystore, its password, the key alias and the key password from the GATECHECK_ANDROID_*
 * environment variables (no literal password in the file), the release build type uses it, and
 * android/.gitignore keeps keystores out of git.
 */
export function signingChecks(gradle: string, gitignore: string): Finding[] {
  const source = gradle.replace(/\/\/[^\n]*/g, '');
  // The body of `signingConfigs { release { … } }`: up to the first line closing it.
  const release = /signingConfigs\s*\{\s*release\s*\{([\s\S]*?)\n {8}\}/.exec(source)?.[1] ?? '';
  const variables = {
    storeFile: 'GATECHECK_ANDROID_KEYSTORE',
    storePassword: 'GATECHECK_ANDROID_KEYSTORE_PASSWORD',
    keyAlias: 'GATECHECK_ANDROID_KEY_ALIAS',
    keyPassword: 'GATECHECK_ANDROID_KEY_PASSWORD',
  } as const;
  const readsEnv = (field: keyof typeof variables) => {
    const value = new RegExp(`\\b${field}\\s*=?\\s*([^\\n]+)`).exec(release)?.[1] ?? '';
    // storeFile is `file(keystore)`, keystore being the variable read just above it.
    return value.includes(`System.getenv("${variables[field]}")`) || (field === 'storeFile' && /file\(keystore\)/.test(value) && release.includes(`System.getenv("${variables.storeFile}")`));
  };
  const notFromEnv = (Object.keys(variables) as Array<keyof typeof variables>).filter((field) => !readsEnv(field));
  const ignored = gitignore.split('\n').map((line) => line.trim());
  return [
    finding('Android release signing reads the upload key from GATECHECK_ANDROID_* environment variables', release !== '' && notFromEnv.length === 0, release === '' ? 'no signingConfigs.release' : `not from the environment: ${notFromEnv.join(', ')}`),
    finding('the release build type is signed by signingConfigs.release', /buildTypes\s*\{\s*release\s*\{[\s\S]*?signingConfig\s*=?\s*signingConfigs\.release/.test(source)),
    finding('android/.gitignore keeps keystores out of git (*.jks, *.keystore)', ignored.includes('*.jks') && ignored.includes('*.keystore')),
  ];
}

/** The npm scripts the hosted native build workflow must run (docs/native.md "Release builds"). */
export const NATIVE_BUILD_SCRIPTS = ['native:android:debug', 'native:android:release', 'native:ios:archive'] as const;

/**
 * .github/workflows/native.yml: parses as YAML, has an Android job on Linux and an iOS job on macOS,
 * and between them runs each of `NATIVE_BUILD_SCRIPTS`, each of which is a script of package.json.
 */
export function workflowChecks(workflow: string | null, scripts: Record<string, string>): Finding[] {
  let parsed: unknown = null;
  let error = '';
  try {
    parsed = workflow === null ? null : parseYaml(workflow);
  } catch (caught) {
    error = caught instanceof Error ? caught.message.split('\n')[0] ?? '' : String(caught);
  }
  const jobs = isRecord(parsed) && isRecord(parsed.jobs) ? Object.values(parsed.jobs).filter(isRecord) : [];
  const runsOn = (job: Record<string, unknown>) => String(job['runs-on'] ?? '');
  const runText = (job: Record<string, unknown>) => (Array.isArray(job.steps) ? job.steps.filter(isRecord).map((step) => String(step.run ?? '')).join('\n') : '');
  const allRuns = jobs.map(runText).join('\n');
  const unrun = NATIVE_BUILD_SCRIPTS.filter((script) => !allRuns.includes(`npm run ${script}`));
  const undefinedScripts = NATIVE_BUILD_SCRIPTS.filter((script) => !scripts[script]);
  return [
    finding('.github/workflows/native.yml parses as YAML with jobs', jobs.length > 0, workflow === null ? 'file missing' : error || 'no jobs'),
    finding('the workflow builds Android on Linux', jobs.some((job) => runsOn(job).startsWith('ubuntu') && runText(job).includes('npm run native:android'))),
    finding('the workflow builds iOS on macOS', jobs.some((job) => runsOn(job).startsWith('macos') && runText(job).includes('npm run native:ios'))),
    finding('the workflow runs every native build script', unrun.length === 0, `not run: ${unrun.join(', ')}`),
    finding('package.json defines every native build script', undefinedScripts.length === 0, `missing: ${undefinedScripts.join(', ')}`),
  ];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
