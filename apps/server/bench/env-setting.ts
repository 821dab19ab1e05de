/**
 * The benches' numeric settings from environment variables (`CAPACITY_WRITE_BATCH=64 npx tsx …`),
 * one reading for every bench script that takes them.
 */

/**
 * The whole number in environment variable `name`, at least `min` (default 0), or `fallback` when
 * the variable is unset or blank.
 * @throws {Error} naming the variable and what it holds, when that is not a whole number ≥ `min`
 */
export function wholeNumberSetting(name: string, fallback: number, { min = 0 }: { min?: number } = {}): number {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}; got "${text}"`);
  return value;
}
