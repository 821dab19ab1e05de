/**
 * Preloaded into a process measured by `bench:scale` (`node --import tsx --import
 * ./bench/report-max-rss.ts ...`): when the process exits, writes its peak resident set size
 * (`process.resourceUsage().maxRSS`, kilobytes) as text to the file named by BENCH_MAX_RSS_FILE.
 * Does nothing without that variable.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
