/**
 * Setup file of the root vitest config's 'server-pg' project (docs/decisions/064): when
 * `scripts/with-postgres.ts --clusters <n>` started several PostgreSQL clusters (`DATABASE_URLS`,
 * space-separated), the test file running in worker `VITEST_POOL_ID` (1 … maxWorkers) gets cluster
 * number VITEST_POOL_ID as its DATABASE_URL, before the test file is imported. Two files running at
 * once then never share a cluster: transaction ids and snapshots are per cluster, and the door-list
 * change cursor (decision 044) is exact only when no other transaction runs beside the test's own.
 * Each file still creates its own database on its cluster (helpers/test-app.ts). With one URL or
 * none, DATABASE_URL stays as it is.
 */
const urls = (process.env.DATABASE_URLS ?? '').split(' ').filter(Boolean);
const poolId = Number(process.env.VITEST_POOL_ID ?? '1');
if (urls.length > 1) {
  const url = urls[(poolId - 1) % urls.length];
  if (url) process.env.DATABASE_URL = url;
}
