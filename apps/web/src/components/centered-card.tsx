import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card.tsx';

/** The frame of the signed-out account screens: one card in the middle, its heading and a line under it. */
export function CenteredCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 pt-[calc(var(--screen-top)+2.5rem)] pb-[calc(var(--safe-bottom)+2.5rem)]">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
        {subtitle && <p className="mt-2 text-lg text-slate-700">{subtitle}</p>}
        <div className="mt-6 flex flex-col gap-5">{children}</div>
      </Card>
    </main>
  );
}
