import { NEITHER_LABEL } from '../../modules/draft/answer-format.ts';
import type { Question } from '../../modules/questions/questions.schemas.ts';
import type { Result } from '../../modules/results/results.schemas.ts';
import type { PublicResults } from '../../modules/sharing/sharing.schemas.ts';
import type { AssetBundle } from '../shared/assets.ts';
import { escapeHtml, head, truncate } from '../shared/html.ts';
import type { Strings } from '../shared/strings/index.ts';
import { barInterval, intervalsLabel, settlementLine } from './settlement.html.ts';

/**
 * The public results page (`GET /r/{code}`, docs/sharing.md): the public results as a document
 * with no script at all. Every number is written out as text ("Penny: 46% (23 answers)"), so a
 * screen reader reads the same thing the bars show; a bar is a small SVG whose filled width is
 * an attribute (the CSP forbids inline styles). Every value from the question or the result is
 * escaped; templates from the string files are escaped too before values go in.
 *
 * The `shared` variant is the page behind a private share link (`GET /s/{token}`): the same page
 * plus what a share link's data carries and the public results do not, the insights summary and
 * the individual answers with their written text and reasons (docs/sharing.md).
 */
export type ResultsPageVariant = 'public' | 'shared';

export interface ResultsPageInput {
  data: PublicResults;
  lang: string;
  strings: Strings;
  assets: AssetBundle;
  /** Heatmap URLs under this address are made relative, so the page loads them from its own origin. */
  publicBaseUrl: string;
  /** `public` (default): `/r/{code}`, aggregates only; `shared`: `/s/{token}`, with answers and insights. */
  variant?: ResultsPageVariant;
  /** A way back, above everything (the portal's view of a question links back to the overview). */
  backLink?: { href: string; label: string };
  /**
   * The account's own view of its question (the portal): the early stop's refund is said in
   * credits. The public page and share links never show money (default false).
   */
  showCredits?: boolean;
}

type Item = Result['distribution'][number];
type Answer = Result['answers'][number];
type Insights = NonNullable<Result['insights']>;
type Values = Record<string, string>;

/** A template with `{name}` placeholders filled with HTML the caller has already escaped. */
const fillHtml = (template: string, values: Values): string => escapeHtml(template).replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
/** The same with plain-text values (escaped here). */
const fill = (template: string, values: Values): string =>
  fillHtml(template, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, escapeHtml(v)])));

const ONE_OPTION_TYPES = new Set(['single_choice', 'ab_image', 'reaction', 'scale_1_5', 'yes_mostly_no']);

/** An image address the page may show: http(s), or a path on this origin. */
const showable = (url: string | null | undefined): url is string => typeof url === 'string' && /^(https?:\/\/|\/(?!\/))/i.test(url);

/** `{PUBLIC_BASE_URL}/v1/…` → `/v1/…`: same origin as the page, whatever host name it was opened on. */
export function localUrl(url: string, publicBaseUrl: string): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return url.startsWith(`${base}/`) ? url.slice(base.length) : url;
}

function formatters(lang: string, s: Strings) {
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
  const decimal = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const integer = new Intl.NumberFormat(lang);
  const plural = new Intl.PluralRules(lang);
  let time: Intl.DateTimeFormat | null = null;
  return {
    pct: (x: number) => percent.format(x),
    dec: (x: number) => decimal.format(x),
    int: (x: number) => integer.format(x),
    answers: (n: number) => (plural.select(n) === 'one' ? s.resultsAnswersOne : s.resultsAnswersMany).replace('{n}', integer.format(n)),
    more: (n: number) => (plural.select(n) === 'one' ? s.resultsSharedMoreOne : s.resultsSharedMoreMany).replace('{n}', integer.format(n)),
    /** An answer's time, in UTC (the server does not know the reader's zone) and said so: "5 Jan 2026, 14:03 UTC". */
    time: (iso: string) => {
      time ??= new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' });
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : time.format(date);
    },
  };
}
type Format = ReturnType<typeof formatters>;

/** What an option is called on the page: yes/mostly/no and "Neither" in the page's language. */
function optionLabel(question: Question, s: Strings, item: Item, index: number): string {
  if (question.type === 'yes_mostly_no') return [s.yes, s.mostly, s.no][index] ?? item.option;
  if (question.neither && question.options.length > 0 && index === question.options.length) return s.neither;
  return item.option;
}

/** A bar filled to `fraction` (0–1) of its width: decoration only, the text says the numbers. */
function bar(fraction: number): string {
  const width = Math.round(Math.min(1, Math.max(0, fraction)) * 1000) / 10;
  return `<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="bar-fill" width="${width}" height="10"/></svg>`;
}

function thumb(question: Question, index: number): string {
  const url = question.options[index]?.imageUrl;
  return showable(url) ? `<img class="bar-img" src="${escapeHtml(url)}" alt="">` : '';
}

/**
 * Choice-like types and multi choice: one bar per option, in the question's order ("Neither" last).
 * After an early stop each bar says its anytime-valid interval, and a line under them says what
 * those are (docs/early-stopping.md): a share from a few answers is not the final word.
 */
function choiceBars(question: Question, result: Result, s: Strings, f: Format, lang: string): string {
  const rows = result.distribution.map((item, i) => {
    const text = fillHtml(s.resultsBar, {
      label: `<strong class="bar-label">${escapeHtml(optionLabel(question, s, item, i))}</strong>`,
      share: `<span class="bar-share">${escapeHtml(f.pct(item.share))}</span>`,
      count: escapeHtml(f.answers(item.count)),
    });
    return `<li class="bar-row">${thumb(question, i)}<p class="bar-text">${text}${barInterval(result.settlement, item, s, f.pct)}</p>${bar(item.share)}</li>`;
  });
  const label = intervalsLabel(result.settlement, { lang, s });
  return `<ul class="bars">\n${rows.join('\n')}\n</ul>${label ? `\n${label}` : ''}`;
}

/** Items best first (rank, then the number that ranks them), each with its index into the question's options. */
function byRank(result: Result, key: (item: Item) => number): Array<{ item: Item; index: number }> {
  return result.distribution
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (a.item.rank ?? Infinity) - (b.item.rank ?? Infinity) || key(a.item) - key(b.item) || a.index - b.index);
}

const rankBadge = (item: Item) => (item.rank === undefined ? '' : `<span class="rank-pos" aria-hidden="true">${item.rank}</span>`);
const rankWords = (item: Item, s: Strings) => (item.rank === undefined ? '' : `<span class="visually-hidden">${fill(s.resultsRank, { rank: String(item.rank) })} </span>`);

function ranking(question: Question, result: Result, s: Strings, f: Format): string {
  const rows = byRank(result, (item) => item.averageRank ?? Infinity).map(({ item, index }) => {
    const details = [
      item.averageRank === undefined ? null : fill(s.resultsAverageRank, { avg: f.dec(item.averageRank) }),
      result.nAccepted > 0 ? `${fill(s.resultsRankedFirst, { count: f.answers(item.count) })} (${escapeHtml(f.pct(item.share))})` : null,
    ].filter((d): d is string => d !== null);
    return (
      `<li class="ranked-item">${rankBadge(item)}<p class="ranked-text">${rankWords(item, s)}<strong class="bar-label">${escapeHtml(optionLabel(question, s, item, index))}</strong>` +
      (details.length ? ` <span class="ranked-detail">${details.join(', ')}</span>` : '') +
      `</p></li>`
    );
  });
  return `<p class="hint">${escapeHtml(s.resultsRankingHint)}</p>\n<ol class="ranked">\n${rows.join('\n')}\n</ol>`;
}

function pairwise(question: Question, result: Result, s: Strings, f: Format): string {
  const rows = byRank(result, (item) => -(item.strength ?? 0)).map(({ item, index }) => {
    const strength = item.strength ?? 0;
    const text = fillHtml(s.resultsStrength, {
      label: `<strong class="bar-label">${escapeHtml(optionLabel(question, s, item, index))}</strong>`,
      share: `<span class="bar-share">${escapeHtml(f.pct(strength))}</span>`,
    });
    const wins = fill(s.resultsWins, { wins: f.int(item.count), shown: f.int(item.appearances ?? 0) });
    return (
      `<li class="ranked-item">${rankBadge(item)}<div class="ranked-text"><p class="bar-text">${rankWords(item, s)}${text}</p>` +
      `<p class="ranked-detail">${wins}</p>${bar(strength)}</div></li>`
    );
  });
  return `<p class="hint">${escapeHtml(s.resultsPairHint)}</p>\n<ol class="ranked">\n${rows.join('\n')}\n</ol>`;
}

function clickTest(question: Question, result: Result, s: Strings, f: Format, publicBaseUrl: string): string {
  const clicks = result.clicks;
  const parts = [`<p class="results-figure">${fill(s.resultsTaps, { n: f.int(clicks?.taps ?? 0) })}</p>`];
  const imageUrl = clicks?.imageUrl ?? question.stimulus?.imageUrl ?? null;
  const hotspots = clicks?.hotspots ?? [];
  if (showable(imageUrl)) {
    let layer = '';
    const heatmapUrl = clicks?.heatmapUrl ? localUrl(clicks.heatmapUrl, publicBaseUrl) : null;
    if (showable(heatmapUrl)) {
      layer = `<img class="heatmap-layer" src="${escapeHtml(heatmapUrl)}" alt="${escapeHtml(s.resultsHeatmapAlt)}">`;
    } else if (hotspots.length) {
      // No public heatmap: the busiest areas as boxes (numbered in the list below), in % of the image.
      const pc = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 10;
      const boxes = hotspots.map((h) => `<rect class="hotspot-box" x="${pc(h.x)}" y="${pc(h.y)}" width="${pc(h.w)}" height="${pc(h.h)}"/>`).join('');
      layer = `<svg class="heatmap-layer" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true" focusable="false">${boxes}</svg>`;
    }
    parts.push(`<div class="heatmap"><img class="heatmap-img" src="${escapeHtml(imageUrl)}" alt="${escapeHtml(s.imageAlt)}">${layer}</div>`);
  }
  if (hotspots.length) {
    const items = hotspots.map((h, i) => {
      const centre = (at: number, size: number) => String(Math.round((at + size / 2) * 100));
      return `<li>${fill(s.resultsHotspot, { i: String(i + 1), share: f.pct(h.share), n: f.int(h.count), x: centre(h.x, h.w), y: centre(h.y, h.h) })}</li>`;
    });
    parts.push(`<h3 class="results-subheading">${escapeHtml(s.resultsHotspots)}</h3>\n<ul class="hotspots">\n${items.join('\n')}\n</ul>`);
  }
  return parts.join('\n');
}

function distribution(question: Question, result: Result, s: Strings, f: Format, lang: string, publicBaseUrl: string, variant: ResultsPageVariant): string {
  const empty = result.nAccepted === 0 ? `<p class="hint">${escapeHtml(s.resultsNoAnswers)}</p>\n` : '';
  switch (question.type) {
    case 'free_text': {
      const count = `<p class="results-figure">${fill(s.resultsWritten, { n: f.int(result.nAccepted) })}</p>`;
      // Behind a share link the answers are listed below; the public page never shows them.
      return variant === 'shared' ? count : `${count}\n<p class="hint">${escapeHtml(s.resultsPrivate)}</p>`;
    }
    case 'click_test':
      return empty + clickTest(question, result, s, f, publicBaseUrl);
    case 'ranking':
      return empty + ranking(question, result, s, f);
    case 'pairwise':
      return empty + pairwise(question, result, s, f);
    case 'multi_choice':
      return `${empty}<p class="hint">${escapeHtml(s.resultsMultiHint)}</p>\n${choiceBars(question, result, s, f, lang)}`;
    case 'scale_1_5': {
      const mean = result.mean === null ? '' : `<p class="results-figure">${fill(s.resultsAverage, { mean: f.dec(result.mean) })}</p>\n`;
      return `${empty}${mean}<p class="hint">${escapeHtml(s.scaleHint)}</p>\n${choiceBars(question, result, s, f, lang)}`;
    }
    default:
      return empty + (ONE_OPTION_TYPES.has(question.type) ? choiceBars(question, result, s, f, lang) : '');
  }
}

function summary(question: Question, result: Result, s: Strings): string {
  const { winner, note } = result.summary;
  const index = winner === null ? -1 : result.distribution.findIndex((item) => item.option === winner);
  const name = winner === null ? null : index >= 0 ? optionLabel(question, s, result.distribution[index], index) : winner;
  const lines = [
    name === null ? '' : `<p class="winner">${fillHtml(s.resultsWinner, { label: `<strong>${escapeHtml(name)}</strong>` })}</p>`,
    note ? `<p>${escapeHtml(note)}</p>` : '',
  ].filter(Boolean);
  if (!lines.length) return '';
  return `<section class="results-card" aria-labelledby="summary-heading">\n<h2 id="summary-heading">${escapeHtml(s.resultsSummary)}</h2>\n${lines.join('\n')}\n</section>`;
}

/** An option an answer or a theme names, in the page's language where the page has a word for it. */
function namedOption(question: Question, s: Strings, option: string): string {
  if (question.type === 'yes_mostly_no') {
    const fixed = ['yes', 'mostly', 'no'].indexOf(option);
    if (fixed >= 0) return [s.yes, s.mostly, s.no][fixed];
  }
  if (question.neither && option === NEITHER_LABEL) return s.neither;
  return option;
}

/** One answer: pinned or not, tier and time, then what was chosen, written and why. */
function answerItem(question: Question, answer: Answer, s: Strings, f: Format, translationLanguage: string | null): string {
  // A translation (docs/results.md "Translations") follows the words as written, marked with its language.
  const translated = (text: string | null | undefined) =>
    text ? `<p class="answer-translation"${translationLanguage ? ` lang="${escapeHtml(translationLanguage)}"` : ''}>${fill(s.resultsSharedTranslation, { text })}</p>` : '';
  const pin = answer.pinned ? `<span class="answer-pin">${escapeHtml(s.resultsSharedPinned)}</span> ` : '';
  const when = `<time datetime="${escapeHtml(answer.answeredAt)}">${escapeHtml(f.time(answer.answeredAt))}</time>`;
  const lines = [
    `<p class="answer-meta">${pin}${fillHtml(s.resultsSharedMeta, { tier: escapeHtml(f.int(answer.tier)), time: when })}</p>`,
    answer.option === null
      ? ''
      : `<p class="answer-choice">${fillHtml(question.type === 'ranking' ? s.resultsSharedRankedFirst : s.resultsSharedChose, {
          option: `<strong>${escapeHtml(namedOption(question, s, answer.option))}</strong>`,
        })}</p>`,
    answer.taps?.length ? `<p class="answer-choice">${fill(s.resultsTaps, { n: f.int(answer.taps.length) })}</p>` : '',
    answer.text ? `<p class="answer-text">${escapeHtml(answer.text)}</p>` : '',
    translated(answer.translatedText),
    answer.reason ? `<p class="answer-reason">${fill(s.resultsSharedReason, { reason: answer.reason })}</p>` : '',
    translated(answer.translatedReason),
  ].filter(Boolean);
  return `<li class="answer${answer.pinned ? ' pinned' : ''}">\n${lines.join('\n')}\n</li>`;
}

/**
 * The answers the result lists (pinned first, then the newest; up to 50), each with its option,
 * written text and reason, and a line for how many more came in than are listed.
 */
function answersSection(question: Question, result: Result, s: Strings, f: Format): string {
  // The result already lists pinned answers first; a stable partition keeps that true whatever it is given.
  const shown = [...result.answers.filter((a) => a.pinned), ...result.answers.filter((a) => !a.pinned)];
  const more = Math.max(0, result.nAccepted - shown.length);
  if (!shown.length && !more) return '';
  const list = shown.length ? `<p class="hint">${escapeHtml(s.resultsSharedAnswersHint)}</p>\n<ul class="answers">\n${shown.map((a) => answerItem(question, a, s, f, result.translationLanguage ?? null)).join('\n')}\n</ul>\n` : '';
  const rest = more ? `<p class="answers-more">${escapeHtml(f.more(more))}</p>\n` : '';
  return `<section class="results-card" aria-labelledby="shared-answers-heading">\n<h2 id="shared-answers-heading">${escapeHtml(s.resultsSharedAnswersHeading)}</h2>\n${list}${rest}</section>`;
}

/**
 * The insights summary (docs/insights.md): takeaway, themes with their share and verbatim quotes,
 * what it is based on and whether it is interim or final. Its words are in the language it was
 * made in (the account's), said by `lang` on them; the page's own words stay in the page's.
 */
function insightsSection(question: Question, insights: Insights, s: Strings, f: Format): string {
  const lang = `lang="${escapeHtml(insights.language)}"`;
  const themes = insights.themes.map((theme) => {
    const text = fillHtml(s.resultsBar, {
      label: `<strong class="bar-label" ${lang}>${escapeHtml(theme.label)}</strong>`,
      share: `<span class="bar-share">${escapeHtml(f.pct(theme.share))}</span>`,
      count: escapeHtml(f.answers(theme.count)),
    });
    const option = theme.option === null ? '' : `<p class="ranked-detail">${fillHtml(s.resultsInsightsOption, { option: `<strong>${escapeHtml(namedOption(question, s, theme.option))}</strong>` })}</p>`;
    const quotes = theme.quotes.map((quote) => `<blockquote class="quote" ${lang}>${escapeHtml(quote)}</blockquote>`).join('\n');
    return `<li class="theme">\n<p class="bar-text">${text}</p>${bar(theme.share)}\n${option}${quotes}\n</li>`;
  });
  const about = `${fill(s.resultsInsightsBasedOn, { n: f.int(insights.basedOn) })} ${escapeHtml(insights.kind === 'final' ? s.resultsInsightsFinal : s.resultsInsightsInterim)}`;
  return (
    `<section class="results-card" aria-labelledby="insights-heading">\n<h2 id="insights-heading">${escapeHtml(s.resultsInsightsHeading)}</h2>\n` +
    `<p class="hint">${escapeHtml(s.resultsInsightsHint)}</p>\n` +
    (insights.takeaway ? `<p class="takeaway" ${lang}>${escapeHtml(insights.takeaway)}</p>\n` : '') +
    (themes.length ? `<ul class="themes">\n${themes.join('\n')}\n</ul>\n` : '') +
    `<p class="hint insights-about">${about}</p>\n</section>`
  );
}

export function resultsPage(input: ResultsPageInput): string {
  const { data, strings: s, lang, publicBaseUrl } = input;
  const variant = input.variant ?? 'public';
  const { question, result } = data;
  const f = formatters(lang, s);
  const collecting = result.status === 'in_progress';
  const status = collecting ? s.resultsLive : s.resultsClosed;
  const title = variant === 'shared' ? s.resultsSharedTitle : s.resultsTitle;
  // Only the shared variant shows answers and insights, and only if the data carries them (the public data never does).
  const settlement = settlementLine(result.settlement, {
    lang,
    s,
    answers: f.answers,
    option: (option) => namedOption(question, s, option),
    collecting,
    showCredits: input.showCredits === true,
  });
  const extra = variant === 'shared' ? [result.insights ? insightsSection(question, result.insights, s, f) : '', answersSection(question, result, s, f)].filter(Boolean) : [];
  return `${head(input.assets, lang, `${truncate(question.text, 60)} · ${title}`)}
<body>
<main class="page results-page">
${input.backLink ? `<p><a class="text-link" href="${escapeHtml(input.backLink.href)}">← ${escapeHtml(input.backLink.label)}</a></p>
` : ''}<p class="byline">${escapeHtml(title)}</p>
<h1 class="question-text">${escapeHtml(question.text)}</h1>
${question.context ? `<p class="context">${escapeHtml(question.context)}</p>\n` : ''}<p class="status-line"><span class="status-pill ${collecting ? 'live' : 'closed'}">${escapeHtml(status)}</span> <span class="received">${fill(s.resultsReceived, { n: f.int(result.nAccepted), total: f.int(result.nRequested) })}</span></p>
${settlement ? `${settlement}\n` : ''}<section class="results-card" aria-labelledby="answers-heading">
<h2 id="answers-heading">${escapeHtml(s.resultsAnswersHeading)}</h2>
${distribution(question, result, s, f, lang, publicBaseUrl, variant)}
</section>
${summary(question, result, s)}
${extra.map((section) => `${section}\n`).join('')}<p class="verification">${escapeHtml(result.verificationLine)}</p>
</main>
</body>
</html>
`;
}
