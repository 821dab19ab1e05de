/** The only barrel in the repo: the contract's public surface (see ../../shared/STYLE.md). */
export * from './errors.ts';
export * from './auth.ts';
export * from './sign-in.ts';
export * from './users.ts';
export * from './organizations.ts';
export * from './tickets.ts';
export * from './check-in-counts.ts';
export * from './supervisor.ts';
export * from './check-in-rules.ts';
export * from './bytes.ts';
export * from './door-list.ts';
export * from './signed-ticket.ts';
export * from './signed-ticket-vectors.ts';
export * from './offline-scans.ts';
export * from './operations.ts';
export * from './paths.ts';
export * from './text.ts';
