import * as compat from 'preact/compat';
import * as compatClient from 'preact/compat/client';
import * as compatJsx from 'preact/compat/jsx-runtime';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as jsxDevRuntime from 'react/jsx-dev-runtime';
import * as jsxRuntime from 'react/jsx-runtime';
import { describe, expect, it } from 'vitest';

// The tests run on what ships: React's entry points are Preact's (apps/web/react-on-preact.ts, docs/decisions/063).
describe('React in the web tests', () => {
  it('is preact/compat, for react, react-dom, react-dom/client and the JSX runtime', () => {
    expect(React.useState).toBe(compat.useState);
    expect(ReactDOM.createPortal).toBe(compat.createPortal);
    expect(ReactDOMClient.createRoot).toBe(compatClient.createRoot);
    expect(jsxRuntime.jsx).toBe(compatJsx.jsx);
  });

  it('compiles our JSX with that runtime', () => {
    const element = <p>x</p>;
    // Preact's element, not React 19's (whose $$typeof is Symbol.for('react.transitional.element')).
    expect(compat.isValidElement(element)).toBe(true);
    expect(Reflect.get(element, '$$typeof')).toBe(Reflect.get(compatJsx.jsx('p', {}), '$$typeof'));
    expect(jsxDevRuntime.jsxDEV).toBe(compatJsx.jsxDEV);
  });
});
