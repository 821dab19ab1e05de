/**
 * The native app's icon and splash screens, generated from the one source image the web app's icons
 * come from (`apps/web/public/favicon.svg`, see apps/web/pwa-assets.config.ts), with sharp (the image
 * library @vite-pwa/assets-generator runs on). Run `npm run native:assets` after changing the SVG and
 * commit the PNGs; decision 030 says why not `@capacitor/assets`.
 *
 * Every PNG of Capacitor's templates is rewritten at its own size (so new template sizes are picked up):
 * - Android `mipmap-*` `ic_launcher.png` (the icon), `ic_launcher_round.png` (cut to a circle),
 *   `ic_launcher_foreground.png` (the icon in the adaptive icon's 66 % safe zone, transparent around;
 *   the background colour is `values/ic_launcher_background.xml`);
 * - Android `drawable…/splash.png` and iOS `Splash.imageset/*.png`: the icon at 30 % of the shorter
 *   side, centred on the app's slate (#0f172a);
 * - iOS `AppIcon.appiconset/*.png`: the icon flattened on slate (App Store icons have no alpha).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import sharp, { type Color, type Sharp } from 'sharp';

const webDir = new URL('../apps/web/', import.meta.url).pathname;
const source = readFileSync(join(webDir, 'public/favicon.svg'));
const SLATE = '#0f172a';

/** Every file under `dir` (recursive). */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The icon as a PNG buffer `size` px square (transparent outside its rounded square). */
function icon(size: number): Promise<Buffer> {
  return sharp(source, { density: Math.max(72, Math.ceil((72 * size) / 512)) })
    .resize(size, size)
    .png()
    .toBuffer();
}

async function writePng(path: string, image: Sharp): Promise<void> {
  writeFileSync(path, await image.png({ compressionLevel: 9 }).toBuffer());
  console.log(`wrote ${relative(webDir, path)}`);
}

async function render(path: string): Promise<void> {
  const { width = 0, height = 0 } = await sharp(path).metadata();
  const name = path.split('/').at(-1) ?? '';
  const canvas = (background: Color) => sharp({ create: { width, height, channels: 4, background } });

  if (name === 'ic_launcher.png') return writePng(path, sharp(await icon(width)));
  if (name === 'ic_launcher_round.png') {
    const mask = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${width / 2}"/></svg>`);
    const flat = await sharp(await icon(width)).flatten({ background: SLATE }).png().toBuffer();
    return writePng(path, sharp(flat).composite([{ input: mask, blend: 'dest-in' }]));
  }
  if (name === 'ic_launcher_foreground.png') {
    const inner = Math.round(width * 0.6);
    return writePng(path, canvas({ r: 0, g: 0, b: 0, alpha: 0 }).composite([{ input: await icon(inner), gravity: 'centre' }]));
  }
  if (name.startsWith('splash')) {
    const inner = Math.round(Math.min(width, height) * 0.3);
    return writePng(path, canvas(SLATE).composite([{ input: await icon(inner), gravity: 'centre' }]).flatten({ background: SLATE }));
  }
  if (path.includes('AppIcon.appiconset')) return writePng(path, sharp(await icon(width)).flatten({ background: SLATE }).removeAlpha());
}

const targets = [
  ...walk(join(webDir, 'android/app/src/main/res')).filter((path) => /\/(mipmap-[a-z]+|drawable[a-z-]*)\/(ic_launcher(_round|_foreground)?|splash)\.png$/.test(path)),
  ...walk(join(webDir, 'ios/App/App/Assets.xcassets')).filter((path) => path.endsWith('.png')),
];
if (targets.length === 0) throw new Error('No template images found: run `npx cap add android` / `npx cap add ios` in apps/web first.');
for (const path of targets) await render(path);

const backgroundXml = join(webDir, 'android/app/src/main/res/values/ic_launcher_background.xml');
writeFileSync(backgroundXml, readFileSync(backgroundXml, 'utf8').replace(/#[0-9A-Fa-f]{6}/, SLATE.toUpperCase()));
console.log(`wrote ${relative(webDir, backgroundXml)}`);
