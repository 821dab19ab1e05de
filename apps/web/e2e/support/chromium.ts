/**
 * Debian's Chromium for the end-to-end suite: no browser download works on our machines, so the
 * suite drives the system package (docs/decisions/009).
 */
import { existsSync } from 'node:fs';

/** Where Debian puts the real binary (`/usr/bin/chromium` is a shell wrapper around it). */
const CANDIDATE_PATHS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

/**
 * The Chromium executable: `CHROMIUM_PATH` when set, else the first Debian path that exists.
 * @throws Error saying how to install Chromium when there is none (or `CHROMIUM_PATH` points nowhere).
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.CHROMIUM_PATH;
  if (configured) {
    if (existsSync(configured)) return configured;
    throw new Error(`Chromium is missing: run \`apt-get update && apt-get install -y chromium\` (CHROMIUM_PATH=${configured} does not exist).`);
  }
  const found = CANDIDATE_PATHS.find((path) => existsSync(path));
  if (!found) throw new Error('Chromium is missing: run `apt-get update && apt-get install -y chromium`.');
  return found;
}

/**
 * Launch flags that keep Chromium quiet on a closed network: no sandbox in containers, no GPU, no
 * background calls home (TESTING-NOTES). Also what `bench:lighthouse` launches it with.
 */
export const QUIET_CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launch flags: quiet on a closed network (QUIET_CHROMIUM_ARGS) and a fake camera that plays
 * `fakeVideoPath` (a Y4M file), allowed without a prompt.
 */
export function chromiumArgs(fakeVideoPath: string): string[] {
  return [
    ...QUIET_CHROMIUM_ARGS,
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${fakeVideoPath}`,
  ];
}
