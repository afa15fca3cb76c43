// The environment variables kagent reads, with what each does: printed by
// `kagent help environment`, and in the ENVIRONMENT section of kagent(1).
export const environmentTable: Array<[string, string]> = [
  ['KAGENT_API_KEY', "API key; wins over the profile's key (never printed, except by `kagent auth token`)"],
  ['KAGENT_BASE_URL', 'API base URL, e.g. https://example.com/api/v1; --base-url wins over it'],
  ['KAGENT_PROFILE', 'profile to use instead of the current one; -p/--profile wins over it'],
  ['KAGENT_LANG', 'content language for writes: zh or en; --lang wins over it'],
  ['KAGENT_CONFIG_DIR', 'directory of config.json (default: $XDG_CONFIG_HOME/kagent or ~/.config/kagent)'],
  ['KAGENT_COMPLETE_TIMEOUT', 'milliseconds a Tab waits for values from the service (default 250; at most 10000)'],
  ['KAGENT_NO_PROMPT', 'never prompt (like --no-input)'],
  ['KAGENT_DEBUG', 'trace HTTP requests on stderr (like --debug)'],
  ['CI', 'set by CI systems: no prompts, no spinners'],
  [
    'GITHUB_ACTIONS',
    'set by GitHub Actions: lib upload and lib sync append a results table to $GITHUB_STEP_SUMMARY and annotate failed files (::error on stderr)',
  ],
  [
    'GITHUB_STEP_SUMMARY',
    'the file lib upload and lib sync append their Markdown table to (only when GITHUB_ACTIONS is set)',
  ],
  ['NO_COLOR', 'no colour (--no-color does the same)'],
  ['FORCE_COLOR', 'colour even when piped (0 or false: never); wins over NO_COLOR'],
  [
    'KAGENT_PAGER',
    'pager for long output on a terminal (cat or empty: none); wins over `kagent config set pager` and PAGER',
  ],
  ['PAGER', 'pager when neither KAGENT_PAGER nor the pager setting is set (default: less -FRX, if installed)'],
  ['LINES, COLUMNS', 'terminal size when the terminal does not say (tables, wrapping, paging)'],
  ['VISUAL, EDITOR', 'the editor commands open for you to write in'],
  ['XDG_CONFIG_HOME', 'base of the default config directory'],
  [
    'KAGENT_CACHE_DIR',
    "cache directory: the rate window shared by kagent processes, upload digests, completion values, Node's compile cache (default: $XDG_CACHE_HOME/kagent or ~/.cache/kagent; %LOCALAPPDATA%\\kagent on Windows)",
  ],
  ['XDG_CACHE_HOME', 'base of the default cache directory'],
  ['HTTPS_PROXY, https_proxy', 'proxy for https:// requests (CONNECT): http://[user:password@]host:port, or https://'],
  ['HTTP_PROXY, http_proxy', 'proxy for http:// requests (sent as absolute-URI requests)'],
  [
    'NO_PROXY, no_proxy',
    'hosts that go direct: names (and the names under them), IP addresses, CIDR blocks, host:port, or *; loopback is proxied unless listed, as with curl',
  ],
];
