import { describe, expect, test } from 'vitest';
import { connectivityReducer, decidesLocally, initialConnectivity } from './connectivity.ts';

describe('connectivity', () => {
  test('one failure still asks the server; the second in a row switches to offline mode; any answer switches back', () => {
    const once = connectivityReducer(initialConnectivity, { type: 'verifyFailed' });
    expect(once).toEqual({ mode: 'online', failures: 1 });
    expect(decidesLocally(once, true)).toBe(false);
    const twice = connectivityReducer(once, { type: 'verifyFailed' });
    expect(twice).toEqual({ mode: 'offline', failures: 2 });
    expect(decidesLocally(twice, true)).toBe(true);
    expect(connectivityReducer(twice, { type: 'serverAnswered' })).toEqual(initialConnectivity);
  });

  test('an answer between two failures resets the count', () => {
    const state = [{ type: 'verifyFailed' } as const, { type: 'serverAnswered' } as const, { type: 'verifyFailed' } as const].reduce(connectivityReducer, initialConnectivity);
    expect(state).toEqual({ mode: 'online', failures: 1 });
  });

  test('a browser that says it is offline decides on the device at once', () => {
    expect(decidesLocally(initialConnectivity, false)).toBe(true);
  });
});
