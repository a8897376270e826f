/**
 * The page's words. The server embeds only the strings of the question's language
 * (src/web/shared/strings/, where every language is checked to have every key); this
 * module fills in `{placeholders}` and formats dates in that language and the phone's time zone.
 */
let strings = {};
let lang = 'en';

export function setStrings(next, language) {
  strings = next;
  lang = language;
}

/** t('tapCount', {count: 1, max: 2}) → "1 of 2 taps". A missing key shows itself, never "undefined". */
export function t(key, vars = {}) {
  const text = strings[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** "Opens at …": the local date and time where the phone is, in the page's language. */
export function formatDateTime(iso) {
  const date = new Date(iso);
  const options = { dateStyle: 'full', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(lang, options).format(date);
  } catch {
    return date.toLocaleString();
  }
}
