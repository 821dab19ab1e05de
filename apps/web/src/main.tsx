/** Entry point: starts the app on index.html (see app/start-app.tsx; the prerendered page: app/prerendered-page.ts). */
// First import: zod must be configured before any module builds a schema (see the module).
import '@/config/zod-jitless.ts';
import { startApp } from '@/app/start-app.tsx';
import './index.css';

void startApp();
