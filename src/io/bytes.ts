// The one way kagent writes a size for people: binary units (1 KiB = 1024
// bytes), one decimal below 10. Used by tables, `me`, upload reports and the
// upload progress line alike. Imports nothing, so any module can use it.

/** 512 → "512 B", 1536 → "1.5 KiB", 10 × 1024³ → "10 GiB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${value} B`;
  // 1023.96 KiB rounds to "1024 KiB": say "1.0 MiB" instead.
  const shown = Number(value.toFixed(Math.abs(value) < 10 ? 1 : 0));
  if (Math.abs(shown) >= 1024 && unit < units.length - 1) return `${(value / 1024).toFixed(1)} ${units[unit + 1]}`;
  return `${value.toFixed(Math.abs(value) < 10 ? 1 : 0)} ${units[unit]}`;
}
