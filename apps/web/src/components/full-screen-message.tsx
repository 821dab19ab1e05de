import type { ReactNode } from 'react';

/** A message filling the screen, announced politely to screen readers (the guard's 'Loading...', SPEC §2). */
export function FullScreenMessage({ children }: { children: ReactNode }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-dvh items-center justify-center p-6 pt-[calc(var(--screen-top)+1.5rem)] pb-[calc(var(--safe-bottom)+1.5rem)] text-xl font-semibold text-slate-900">
      {children}
    </div>
  );
}
