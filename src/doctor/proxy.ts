// Which proxy a request to a URL would use, from HTTPS_PROXY / HTTP_PROXY /
// NO_PROXY (and their lower-case forms), as curl and most tools read them.
// TODO(proxy): replace with `proxyFor` from src/http/proxy.ts once proxy support
// lands in the HTTP core; until then the doctor names the proxy and checks that
// it answers, but kagent's own requests do not go through it.

export interface ProxyChoice {
  url: string;
  /** The variable it came from. */
  from: string;
}

export function proxyFor(url: string, env: NodeJS.ProcessEnv): ProxyChoice | undefined {
  const target = new URL(url);
  const read = (name: string): [string, string] | undefined => {
    const value = env[name] ?? env[name.toLowerCase()];
    if (value === undefined || value.trim() === '') return undefined;
    return [value.trim(), env[name] !== undefined ? name : name.toLowerCase()];
  };
  const chosen = target.protocol === 'https:' ? (read('HTTPS_PROXY') ?? read('ALL_PROXY')) : (read('HTTP_PROXY') ?? read('ALL_PROXY'));
  if (!chosen) return undefined;
  if (bypassed(target, read('NO_PROXY')?.[0])) return undefined;
  const [value, from] = chosen;
  return { url: /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`, from };
}

/** NO_PROXY: `*`, host names (a leading dot or none matches subdomains too), optional `:port`. */
function bypassed(target: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [name, entryPort] = entry.toLowerCase().replace(/^\*?\./, '.').split(/:(?=\d+$)/) as [string, string | undefined];
      if (entryPort && entryPort !== port) return false;
      const bare = name.replace(/^\./, '');
      return host === bare || host.endsWith(`.${bare}`);
    });
}
