/**
 * The pieces every mail of the service is written with (sign-in codes, invitations, support):
 * `{name}` templates, and a small HTML part beside the plain text with the same words. Everything
 * that goes into the HTML is escaped here, whoever typed it.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeMailHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Fills `{name}` placeholders with plain values (an unknown name stays as it is). */
export const fillTemplate = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => (name in values ? String(values[name]) : `{${name}}`));

/**
 * An HTML body of paragraphs of plain text (escaped, line breaks kept), the first one larger when
 * `lead` is set, and an optional button (a link) at the end. `html` paragraphs are already HTML
 * the caller escaped and built (a code set in bold).
 */
export function mailHtml(paragraphs: Array<string | { html: string }>, options: { lead?: boolean; action?: { href: string; label: string } } = {}): string {
  const body = paragraphs
    .map((p, i) => {
      const inner = typeof p === 'string' ? escapeMailHtml(p).replace(/\n/g, '<br>') : p.html;
      return i === 0 && options.lead ? `<p style="font-size:18px">${inner}</p>` : `<p>${inner}</p>`;
    })
    .join('');
  const button = options.action
    ? `<p><a href="${escapeMailHtml(options.action.href)}" style="display:inline-block;padding:12px 20px;background:#3342c8;color:#fff;border-radius:8px;text-decoration:none;font-weight:600">${escapeMailHtml(options.action.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:16px;line-height:1.5;color:#111">${body}${button}</body></html>`;
}
