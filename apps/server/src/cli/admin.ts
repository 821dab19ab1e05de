/**
 * Entry point of `npm run admin -- <command>` (see program.ts; `--help` lists every command).
 */
import { runAdmin } from './program.ts';

process.exitCode = await runAdmin(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
