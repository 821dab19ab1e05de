import { defineProject } from 'vitest/config';
import web, { NATIVE_TEST_FILES } from './vitest.config.ts';

/**
 * Web tests on Capacitor's Android bridge ('web-native', `*.native.test.ts(x)`): the 'web' project's
 * setup (jsdom, React, MSW), but each file isolated, in a new module graph and jsdom window, since
 * Capacitor's plugins take their platform when their modules are evaluated (docs/decisions/065).
 */
export default defineProject({
  ...web,
  test: { ...web.test, name: 'web-native', include: NATIVE_TEST_FILES, exclude: [], isolate: true },
});
