/** Entry point: starts the app in #root (see app/start-app.tsx). */
// First import: zod must be configured before any module builds a schema (see the module).
import '@/config/zod-jitless.ts';
import { startApp } from '@/app/start-app.tsx';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

void startApp(container);
