/**
 * A preload (`node --import ./bench/allocation-profile.ts dist/server.js`) that samples what the
 * process allocates, garbage included: V8's sampling heap profiler with the objects that minor and
 * major collections freed kept in the profile (`--heap-prof` keeps only what is still alive at its
 * end, which says nothing about a request's short-lived garbage). Every ALLOCATION_PROFILE_INTERVAL
 * bytes on average (default 4,096) a sample with its stack; `ALLOCATION_PROFILE_KEEP=survivors`
 * leaves out what minor collections freed (what is left: what outlived a scavenge). When the process exits, the profile
 * goes to `$ALLOCATION_PROFILE_DIR/Alloc.<pid>.heapprofile` (Chrome DevTools' Memory tab opens it;
 * `bench/allocation-summary.ts` sums it by source). Without ALLOCATION_PROFILE_DIR it does nothing.
 * Used by docs/performance.md "The server's JavaScript per approval".
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const directory = process.env.ALLOCATION_PROFILE_DIR;
if (directory) {
  const session = new Session();
  session.connect();
  const samplingInterval = Number(process.env.ALLOCATION_PROFILE_INTERVAL ?? 4_096);
  // `ALLOCATION_PROFILE_KEEP=survivors`: only what outlived the young generation's collections
  // (promoted, or still alive at the end): what makes a scavenge cost.
  const isSurvivorsOnly = process.env.ALLOCATION_PROFILE_KEEP === 'survivors';
  session.post('HeapProfiler.startSampling', { samplingInterval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !isSurvivorsOnly });
  // The in-thread session answers synchronously, so this works in an exit handler.
  process.on('exit', () => {
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) console.error(`allocation profile: ${error.message}`);
      else writeFileSync(path.join(directory, `Alloc.${process.pid}.heapprofile`), JSON.stringify(result.profile));
    });
  });
}
