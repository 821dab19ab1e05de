/**
 * The embedded database on disk, durable at commit (issue 15 item 13, docs/decisions/026).
 *
 * PGlite starts PostgreSQL with `-F` (fsync off), and the Emscripten file system that maps its files
 * onto the host (NODEFS) has no `fsync` of its own: PostgreSQL's `fsync()` calls end in a no-op and
 * its `fdatasync()` is a no-op in Emscripten's syscall layer. A commit was written to the WAL with
 * `pwrite` but never synced, so a power cut or an OS crash could lose a check-in that a gate had
 * already shown as APPROVED. Here PostgreSQL runs with fsync on and `wal_sync_method=fsync`, and
 * NODEFS forwards `fsync` to the host's `fsync(2)`: PostgreSQL's own rules then apply unchanged (the
 * WAL is synced before COMMIT returns, data files before a checkpoint moves the redo point, the
 * control file and directories when they change).
 */
import { fsyncSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/**
 * PGlite's own start parameters without `-F`, with WAL syncs through `fsync()`: the one sync call
 * NODEFS can forward (Emscripten drops `fdatasync()` before it reaches any file system).
 */
export const DURABLE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams.filter((parameter) => parameter !== '-F'),
  '-c',
  'fsync=on',
  '-c',
  'wal_sync_method=fsync',
  '-c',
  'synchronous_commit=on',
];

/** The part of an Emscripten stream our `fsync` needs: NODEFS keeps the host descriptor in `nfd`. */
interface NodeFsStream {
  nfd?: unknown;
}

/**
 * The slice of Emscripten's NODEFS the patch touches: its stream operations, and `tryFSOperation`,
 * which turns a Node error into the errno PostgreSQL sees (the mapping NODEFS uses for every call).
 */
interface NodeFsInternals {
  stream_ops?: Record<string, unknown>;
  tryFSOperation?: (operation: () => void) => void;
}

/**
 * A NodeFS whose streams answer `fsync` with the host's `fsync(2)` on the real file. A failed sync
 * reaches PostgreSQL as an errno and the commit is refused ("could not fsync file"), so the request
 * fails instead of answering APPROVED.
 */
class SyncingNodeFS extends NodeFS {
  override async init(...[pg, options]: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(pg, options);
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        preRun: [...(emscriptenOpts.preRun ?? []), (module) => forwardFsync(module.NODEFS)],
      },
    };
  }
}

function forwardFsync(nodeFs: NodeFsInternals): void {
  const streamOps = nodeFs.stream_ops;
  const tryFSOperation = nodeFs.tryFSOperation?.bind(nodeFs);
  // Fail loudly on a PGlite build laid out differently: a silently non-durable database is the
  // defect this module exists to prevent.
  if (!streamOps || !tryFSOperation) throw new Error('PGlite: NODEFS internals not found; cannot make the embedded database durable.');
  streamOps.fsync = (stream: NodeFsStream): number => {
    const descriptor = stream.nfd;
    if (typeof descriptor === 'number') tryFSOperation(() => fsyncSync(descriptor));
    return 0;
  };
}

/**
 * Opens (creating on first use) the PGlite database in `dir`.
 * @param options.isDurable true (the default): every commit is on disk before it returns (fsync of
 *   the WAL), and files written before this open (a new folder's `initdb`, a run of a version
 *   without durability) are synced once. false: PGlite's defaults (fsync off), kept only as the
 *   reference of `npm run bench:verify`.
 * @throws when PGlite cannot open the folder, or durability cannot be switched on.
 */
export async function openPgliteDir(dir: string, options: { isDurable?: boolean } = {}): Promise<PGlite> {
  if (options.isDurable === false) return PGlite.create(dir);
  const client = await PGlite.create({ fs: new SyncingNodeFS(dir), startParams: [...DURABLE_START_PARAMS] });
  try {
    const [setting] = (await client.query<{ fsync: string }>('SHOW fsync')).rows;
    if (setting?.fsync !== 'on') throw new Error(`PGlite: fsync is ${setting?.fsync ?? 'unknown'} after asking for on.`);
    await syncTree(dir);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

/**
 * fsyncs every file and folder under `dir` (and `dir` itself), as PostgreSQL does to its data folder
 * after a crash: PGlite's `initdb` writes a new folder without syncing it, and PostgreSQL syncs only
 * what it writes itself from now on. A few hundred files, once per open.
 */
async function syncTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) await syncTree(entryPath);
    else if (entry.isFile()) await syncPath(entryPath);
  }
  await syncPath(dir);
}

async function syncPath(target: string): Promise<void> {
  const file = await open(target, 'r');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}
