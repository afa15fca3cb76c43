// Terminal hyperlinks (OSC 8): a clickable label that opens a URL. Only on a
// terminal known to support them (detected the way the supports-hyperlinks
// package does: FORCE_HYPERLINK, then the terminal's own variables), never
// when piped (unlike supports-hyperlinks, FORCE_HYPERLINK does not override
// that), and only for http(s) URLs. Both the label
// and the URL must already be free of control characters; the URL is checked
// again here because it ends up inside an escape sequence.
import type { IO } from '../context.js';

/** Whether stdout (or stderr) of this run can show OSC 8 hyperlinks. */
export function supportsHyperlinks(
  io: Pick<IO, 'env' | 'stdoutIsTTY' | 'stderrIsTTY'>,
  stream: 'stdout' | 'stderr' = 'stdout',
): boolean {
  const env = io.env;
  // Never into a pipe or a file, whatever the environment says.
  if (!(stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY)) return false;
  const force = env.FORCE_HYPERLINK;
  if (force !== undefined) return !(force === '' || force === '0' || force.toLowerCase() === 'false');
  if (env.NO_HYPERLINKS !== undefined && env.NO_HYPERLINKS !== '') return false;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false') return false;
  if (env.TEAMCITY_VERSION) return false;
  if (env.TERM === 'dumb') return false;
  if (env.WT_SESSION) return true; // Windows Terminal
  if (env.DOMTERM || env.KONSOLE_VERSION || env.KITTY_WINDOW_ID) return true;
  if (
    env.TERM === 'xterm-kitty' ||
    env.TERM === 'xterm-ghostty' ||
    env.TERM === 'wezterm' ||
    env.TERM === 'alacritty' ||
    env.TERM === 'foot'
  )
    return true;
  if (env.VTE_VERSION) {
    // 0.50.1 (5001) was the first VTE with OSC 8; 0.50.0 had a crash on it.
    const vte = Number.parseInt(env.VTE_VERSION, 10);
    return Number.isFinite(vte) && vte >= 5001;
  }
  const version = parseVersion(env.TERM_PROGRAM_VERSION ?? '');
  switch (env.TERM_PROGRAM) {
    case 'iTerm.app':
      return version.major > 3 || (version.major === 3 && version.minor >= 1);
    case 'WezTerm':
      return version.major >= 20200620;
    case 'vscode':
      return version.major > 1 || (version.major === 1 && version.minor >= 72);
    case 'ghostty':
    case 'Hyper':
      return true;
    default:
      return false;
  }
}

function parseVersion(text: string): { major: number; minor: number } {
  const [major, minor] = text.split(/[.-]/).map((part) => Number.parseInt(part, 10));
  return {
    major: Number.isFinite(major) ? (major as number) : 0,
    minor: Number.isFinite(minor) ? (minor as number) : 0,
  };
}

/** A URL safe to put inside an OSC 8 sequence: http(s) only, no control characters or spaces. */
export function linkableUrl(url: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  if (/[\x00-\x20\x7f-\x9f]/.test(url)) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** `label` linked to `url` when `enabled` and the URL is a clean http(s) URL; the label alone otherwise. */
export function hyperlink(label: string, url: string, enabled: boolean): string {
  if (!enabled || !linkableUrl(url)) return label;
  return `\x1b]8;;${url}\x1b\\${label}\x1b]8;;\x1b\\`;
}
