// Stress loops (many seeds, many random steps) run at full size in `npm test`
// and CI, and smaller in the inner loop: `npm run test:fast` sets
// KAGENT_TEST_SCALE=0.125. Never below `least`, so a scaled loop still runs.
export function scaled(full: number, least = 1): number {
  const scale = Number(process.env.KAGENT_TEST_SCALE ?? 1);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1)
    throw new Error(`KAGENT_TEST_SCALE must be in (0, 1], not ${process.env.KAGENT_TEST_SCALE}`);
  return Math.max(least, Math.round(full * scale));
}
