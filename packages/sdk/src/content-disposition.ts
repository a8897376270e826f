/**
 * The file name in a Content-Disposition header (RFC 6266), as the exports send it: the UTF-8
 * `filename*=UTF-8''…` when present (the real name, accents and all), else the ASCII `filename`.
 */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([\w!#$&+.^`|~-]+)'[\w-]*'([^;\s]+)/i.exec(header);
  if (extended) {
    try {
      const charset = extended[1]!.toLowerCase();
      const value = extended[2]!;
      if (charset === 'utf-8') return decodeURIComponent(value);
      // ISO-8859-1: each %XX is one code point.
      return value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    } catch {
      // A malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const token = /(?:^|;)\s*filename\s*=\s*([^;\s]+)/i.exec(header);
  return token ? token[1]! : null;
}
