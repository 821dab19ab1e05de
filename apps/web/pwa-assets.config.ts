/**
 * App icons, generated from the one source `public/favicon.svg` by `npm run icons -w @gatecheck/web`
 * (@vite-pwa/assets-generator on sharp; the outputs are committed to public/ and linked from
 * index.html). The "minimal 2023" set: favicon.ico (48 px), 64/192/512 px PNGs, a 512 px maskable icon
 * (padded on the slate background so launchers may crop it to a circle) and the 180 px
 * apple-touch-icon.
 */
import { defineConfig, minimal2023Preset } from '@vite-pwa/assets-generator/config';

export default defineConfig({
  headLinkOptions: { preset: '2023' },
  preset: {
    ...minimal2023Preset,
    maskable: { ...minimal2023Preset.maskable, resizeOptions: { background: '#0f172a' } },
    apple: { ...minimal2023Preset.apple, resizeOptions: { background: '#0f172a' } },
  },
  images: ['public/favicon.svg'],
});
