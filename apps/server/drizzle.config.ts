import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate -w @gatecheck/server` writes SQL migrations from the schema to ./drizzle. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
