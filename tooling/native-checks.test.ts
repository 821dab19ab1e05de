/**
 * `npm run native:check`'s build checks (scripts/native-checks.ts, decision 091): the committed
 * projects pass them, and each rule fails on a project broken the way a first build or install
 * would be (the files as they were before the rule, or one edit away from it).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  BASE_PLUGIN_JAVA,
  backupChecks,
  iosDeploymentTargetChecks,
  javaPluginMethods,
  networkSecurityChecks,
  pluginAndroidJava,
  pluginMethodChecks,
  standInPluginHeaders,
  workflowChecks,
  type Finding,
} from '../scripts/native-checks.ts';
import { STAND_IN_PLUGINS } from '../apps/web/src/test/capacitor-stand-in.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const web = 'apps/web/';
const manifest = read(`${web}android/app/src/main/AndroidManifest.xml`);
const securityConfig = read(`${web}android/app/src/main/res/xml/network_security_config.xml`);
const extractionRules = read(`${web}android/app/src/main/res/xml/data_extraction_rules.xml`);
const podfile = read(`${web}ios/App/Podfile`);
const pbxproj = read(`${web}ios/App/App.xcodeproj/project.pbxproj`);
const rootPackage = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
const webPackage = JSON.parse(read(`${web}package.json`)) as { dependencies: Record<string, string> };

/** The descriptions of the failed findings. */
const failed = (findings: Finding[]) => findings.filter((entry) => !entry.ok).map((entry) => entry.description);

describe('iOS deployment target', () => {
  test('the committed Podfile and Xcode project target iOS 15.5', () => {
    expect(failed(iosDeploymentTargetChecks(podfile, pbxproj))).toEqual([]);
  });

  test("iOS 15.0 (the template's, which pod install refuses for ML Kit) fails, in the Podfile or in one build configuration", () => {
    expect(failed(iosDeploymentTargetChecks(podfile.replace("platform :ios, '15.5'", "platform :ios, '15.0'"), pbxproj))).toEqual(["iOS Podfile's platform is 15.5"]);
    expect(failed(iosDeploymentTargetChecks(podfile, pbxproj.replace('IPHONEOS_DEPLOYMENT_TARGET = 15.5;', 'IPHONEOS_DEPLOYMENT_TARGET = 15.0;')))).toEqual([
      "iOS project's IPHONEOS_DEPLOYMENT_TARGET is 15.5 everywhere",
    ]);
  });
});

describe('Android network security config', () => {
  test('the committed manifest and config trust user certificates and allow the documented http', () => {
    expect(failed(networkSecurityChecks(manifest, securityConfig))).toEqual([]);
  });

  test('the template manifest (usesCleartextTraffic, no config) fails', () => {
    const template = manifest.replace(/\s*android:networkSecurityConfig="[^"]*"/, '').replace('<application', '<application android:usesCleartextTraffic="true"');
    expect(failed(networkSecurityChecks(template, null))).toEqual([
      'AndroidManifest.xml names @xml/network_security_config',
      'AndroidManifest.xml leaves cleartext to the network security config (no usesCleartextTraffic)',
      'res/xml/network_security_config.xml has a base-config',
      'the network security config trusts system and user-installed certificates',
      'the network security config permits http only as docs/native.md does (base-config, for the private network)',
    ]);
  });

  test('a config without user certificates (or with them commented out) fails: a self-signed LAN server would never be trusted', () => {
    const systemOnly = securityConfig.replace('<certificates src="user" />', '');
    const commentedOut = securityConfig.replace('<certificates src="user" />', '<!-- <certificates src="user" /> -->');
    for (const config of [systemOnly, commentedOut]) {
      expect(failed(networkSecurityChecks(manifest, config))).toEqual(['the network security config trusts system and user-installed certificates']);
    }
  });

  test('cleartext turned off, or widened with a domain-config, fails', () => {
    const noHttp = securityConfig.replace('cleartextTrafficPermitted="true"', 'cleartextTrafficPermitted="false"');
    const widened = securityConfig.replace('</network-security-config>', '<domain-config cleartextTrafficPermitted="true"><domain>example.com</domain></domain-config></network-security-config>');
    for (const config of [noHttp, widened]) {
      expect(failed(networkSecurityChecks(manifest, config))).toEqual(['the network security config permits http only as docs/native.md does (base-config, for the private network)']);
    }
  });
});

describe('Android backups', () => {
  test('the committed manifest turns backups off and its rules exclude everything from cloud backup and device transfer', () => {
    expect(failed(backupChecks(manifest, extractionRules))).toEqual([]);
  });

  test("the template's allowBackup=\"true\" without rules fails", () => {
    const template = manifest.replace('android:allowBackup="false"', 'android:allowBackup="true"').replace(/\s*android:dataExtractionRules="[^"]*"/, '');
    expect(failed(backupChecks(template, null))).toEqual([
      'AndroidManifest.xml turns backups off (allowBackup="false")',
      'AndroidManifest.xml names @xml/data_extraction_rules',
      'data extraction rules exclude Preferences, WebView storage, databases and files from cloud-backup',
      'data extraction rules exclude Preferences, WebView storage, databases and files from device-transfer',
    ]);
  });

  test('a device transfer that would carry Preferences (the bearer token) or that includes anything fails', () => {
    const transferBody = /<device-transfer>[\s\S]*?<\/device-transfer>/;
    const keepsPreferences = extractionRules.replace(transferBody, (body) => body.replace('<exclude domain="sharedpref" path="." />', ''));
    const includes = extractionRules.replace(transferBody, (body) => body.replace('<device-transfer>', '<device-transfer><include domain="sharedpref" path="." />'));
    for (const rules of [keepsPreferences, includes]) {
      expect(failed(backupChecks(manifest, rules))).toEqual(['data extraction rules exclude Preferences, WebView storage, databases and files from device-transfer']);
    }
  });
});

describe("the bridge stand-in's plugin methods", () => {
  const plugins = Object.keys(webPackage.dependencies)
    .filter((name) => /^@capacitor(-community|-mlkit)?\//.test(name) && !['@capacitor/android', '@capacitor/core', '@capacitor/ios'].includes(name))
    .map((packageName) => ({ packageName, java: pluginAndroidJava(`${ROOT}node_modules/${packageName}`) }));
  const basePlugin = read(`node_modules/@capacitor/android/${BASE_PLUGIN_JAVA}`);

  test("Java's @PluginMethods are read with their names and return types, comments left out", () => {
    const java = `
      @CapacitorPlugin(
          name = "Door", permissions = { @Permission(strings = {}, alias = "camera") }
      )
      public class DoorPlugin extends Plugin {
          @PluginMethod
          public void open(PluginCall call) {}
          @PluginMethod(returnType = PluginMethod.RETURN_CALLBACK)
          @PermissionCallback
          public void watch(PluginCall call) {}
          // @PluginMethod
          // public void old(PluginCall call) {}
          public void helper() {}
      }`;
    expect(javaPluginMethods(java)).toEqual({
      name: 'Door',
      methods: [
        { name: 'open', returnType: 'promise' },
        { name: 'watch', returnType: 'callback' },
      ],
    });
  });

  test('a Kotlin plugin class (as @capacitor/filesystem is written) is read the same way', () => {
    const kotlin = `
      @CapacitorPlugin(
          name = "Files",
          permissions = [Permission(strings = [], alias = "publicStorage")]
      )
      class FilesPlugin : Plugin() {
          @PluginMethod
          fun readFile(call: PluginCall) {}
          @PluginMethod(returnType = PluginMethod.RETURN_CALLBACK)
          fun readFileInChunks(call: PluginCall) {}
          fun helper() {}
      }`;
    expect(javaPluginMethods(kotlin)).toEqual({
      name: 'Files',
      methods: [
        { name: 'readFile', returnType: 'promise' },
        { name: 'readFileInChunks', returnType: 'callback' },
      ],
    });
  });

  test("every plugin the app depends on has a header with exactly its Android methods and Capacitor's own", () => {
    expect(plugins.length).toBeGreaterThanOrEqual(7);
    expect(failed(pluginMethodChecks(standInPluginHeaders(), plugins, basePlugin))).toEqual([]);
  });

  test("a stand-in missing a method the plugin's Java has (App.getAppLanguage, before this check) fails, naming it", () => {
    const before = { ...STAND_IN_PLUGINS, App: STAND_IN_PLUGINS.App.filter((name) => name !== 'getAppLanguage') };
    const findings = pluginMethodChecks(standInPluginHeaders(before), plugins, basePlugin);
    expect(failed(findings)).toEqual(["the bridge stand-in lists App's Android methods (@capacitor/app)"]);
    expect(findings.find((entry) => !entry.ok)?.detail).toBe('missing getAppLanguage');
  });

  test('a method Android does not have, a plugin the app lacks, or a plugin without a header fails', () => {
    const { SplashScreen: _dropped, ...withoutSplash } = STAND_IN_PLUGINS;
    const extra = { ...withoutSplash, Haptics: [...STAND_IN_PLUGINS.Haptics, 'buzz'], Camera: ['takePhoto'] };
    expect(failed(pluginMethodChecks(standInPluginHeaders(extra), plugins, basePlugin))).toEqual([
      "the bridge stand-in lists Haptics's Android methods (@capacitor/haptics)",
      "the bridge stand-in lists SplashScreen's Android methods (@capacitor/splash-screen)",
      'the bridge stand-in has no plugin the app lacks',
    ]);
  });
});

describe('the native build workflow', () => {
  const workflow = read('.github/workflows/native.yml');

  test('the committed workflow parses and runs each build script on the right runner', () => {
    expect(failed(workflowChecks(workflow, rootPackage.scripts))).toEqual([]);
  });

  test('a workflow that does not parse, or has no iOS job, or a script package.json lacks, fails', () => {
    expect(failed(workflowChecks('jobs:\n  android:\n    runs-on: [ubuntu', rootPackage.scripts))).toContain('.github/workflows/native.yml parses as YAML with jobs');
    expect(failed(workflowChecks(workflow.replace(/runs-on: macos-[\w.-]+/, 'runs-on: ubuntu-24.04'), rootPackage.scripts))).toEqual(['the workflow builds iOS on macOS']);
    const { 'native:ios:archive': _archive, ...scripts } = rootPackage.scripts;
    expect(failed(workflowChecks(workflow, scripts))).toEqual(['package.json defines every native build script']);
    expect(failed(workflowChecks(null, rootPackage.scripts))).toContain('.github/workflows/native.yml parses as YAML with jobs');
  });
});
