/**
 * The name an export is offered under (Content-Disposition, Export.filename): the question's text
 * as a person would name the file, e.g. `Which logo do you prefer.pdf`, `… (story).png`.
 * Characters no file system takes (`/ \ : * ? " < > |`, controls) become spaces, runs of spaces
 * one, and the text is cut at a word near FILENAME_TEXT_CHARS. A text with nothing left is named
 * by the question's id. The route sends it with an ASCII fallback and the UTF-8 name (RFC 6266).
 */
const FILENAME_TEXT_CHARS = 80;
// eslint-disable-next-line no-control-regex
const UNSAFE = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g;

export function exportFilename(questionText: string, questionId: string, extension: 'csv' | 'pdf' | 'png' | 'svg', qualifier?: string): string {
  let title = questionText.normalize('NFC').replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  if (title.length > FILENAME_TEXT_CHARS) {
    const cut = title.slice(0, FILENAME_TEXT_CHARS);
    const space = cut.lastIndexOf(' ');
    title = `${(space > FILENAME_TEXT_CHARS / 2 ? cut.slice(0, space) : cut).trim()}…`;
  }
  // A name of dots alone means something else to a file system.
  title = title.replace(/^[.\s]+|[.\s]+$/g, '');
  if (!title) title = `Headcount ${questionId}`;
  return `${title}${qualifier ? ` (${qualifier})` : ''}.${extension}`;
}

/**
 * The plain-ASCII `filename` sent beside the UTF-8 `filename*` for old clients: accents dropped
 * (é → e), other letters as `_`, so "Qué opinas.pdf" stays readable and Devanagari becomes `_`s
 * rather than the `?`s a client would refuse to save.
 */
export function asciiFilename(filename: string): string {
  return filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/…/g, '...')
    .replace(/[^\x20-\x7e]+/g, '_');
}
