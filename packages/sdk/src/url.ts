/**
 * The URL of an operation: the base URL (which may carry a path prefix, such as a proxy's
 * `/headcount`), the path template with its parameters percent-encoded, and the query string.
 * Query values are sent as the service reads them (docs/api.md: "query strings are read as text
 * and converted"): booleans as true/false, numbers in decimal, arrays as repeated keys;
 * undefined and null are left out.
 */
export function operationUrl(baseUrl: string, template: string, path: Record<string, unknown> | undefined, query: Record<string, unknown> | undefined): string {
  const filled = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = path?.[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`Missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      search.append(key, String(item));
    }
  }
  const text = search.toString();
  return `${baseUrl.replace(/\/+$/, '')}${filled}${text ? `?${text}` : ''}`;
}
