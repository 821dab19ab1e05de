/** The only barrel in the repo: the contract's public surface (see ../../shared/STYLE.md). */
export * from './errors.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './organizations.ts';
export * from './tickets.ts';
export * from './check-in-counts.ts';
export * from './supervisor.ts';
export * from './check-in-rules.ts';
export * from './operations.ts';
export * from './paths.ts';
export * from './text.ts';
