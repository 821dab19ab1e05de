/** A centred explanation when a list has nothing to show (SPEC §2 empty states). */
export function EmptyState({ title, description, children }: { title: string; description: string; children?: React.ReactNode }) {
  return (
    <section aria-labelledby="empty-state-title" className="rounded-2xl border-2 border-dashed border-slate-400 bg-white p-8 text-center">
      <h2 id="empty-state-title" className="text-xl font-bold text-slate-900">
        {title}
      </h2>
      <p className="mt-2 text-base text-slate-700">{description}</p>
      {children && <div className="mt-6">{children}</div>}
    </section>
  );
}
