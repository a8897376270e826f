import {
  MAX_QUOTES,
  MAX_THEMES,
  checkSummary,
  leadingOption,
  stringsOf,
  writtenOf,
  type InsightsEngine,
  type Sentiment,
  type Summary,
  type SummaryRequest,
} from './insights.engine.ts';
import { chatCompletion, type ChatApi, type Fetch } from '../text/chat-api.ts';

/**
 * The optional engine behind an OpenAI-compatible chat-completions API (ARCHITECTURE §2), used
 * when INSIGHTS_API_URL and INSIGHTS_MODEL are set (docs/insights.md). It sends only the written
 * answers, numbered (never who answered), asks for JSON themes that name their answers by number,
 * and takes nothing on trust: counts and options are computed here from those numbers, every quote
 * must be an exact answer string of its theme, the sentiment counts must add up. Anything else (a
 * network error, a timeout, bad JSON, one invented quote) and the local engine answers instead.
 */
/** Beyond this many written answers or characters the local engine answers on its own. */
const MAX_REMOTE_ANSWERS = 400;
const MAX_REMOTE_CHARS = 120_000;
const SENTIMENTS: readonly Sentiment[] = ['positive', 'neutral', 'negative'];

const SYSTEM_PROMPT = [
  'You summarise written answers to a survey question. Reply with one JSON object only:',
  '{"themes":[{"label":string,"answerIds":number[],"sentiment":"positive"|"neutral"|"negative","quotes":string[]}],',
  '"sentiment":{"positive":number,"neutral":number,"negative":number},"takeaway":string}.',
  `At most ${MAX_THEMES} themes, largest first; label: a short phrase (2 to 5 words); answerIds: the ids of the answers in the theme;`,
  `quotes: up to ${MAX_QUOTES} answer texts or reasons of that theme copied EXACTLY, character for character;`,
  'sentiment: how many answers are positive, neutral and negative, adding up to the number of answers;',
  'takeaway: one sentence with numbers ("7 of 30 …"). Write labels and the takeaway in the language of the answers.',
].join(' ');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the model's JSON into a Summary, or returns null with what was wrong. */
export function readRemoteSummary(content: string, request: SummaryRequest, engine: string): { summary: Summary | null; problems: string[] } {
  const answers = writtenOf(request.answers);
  const fail = (problem: string) => ({ summary: null, problems: [problem] });
  let raw: unknown;
  try {
    raw = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return fail('not JSON');
  }
  if (!isObject(raw) || !Array.isArray(raw.themes) || !isObject(raw.sentiment) || typeof raw.takeaway !== 'string') return fail('not the asked shape');
  if (raw.themes.length > MAX_THEMES) return fail(`${raw.themes.length} themes`);
  const members: number[][] = [];
  const themes: Summary['themes'] = [];
  for (const theme of raw.themes) {
    if (!isObject(theme) || typeof theme.label !== 'string' || !Array.isArray(theme.answerIds) || !Array.isArray(theme.quotes)) return fail('a theme is not the asked shape');
    const ids = theme.answerIds;
    if (!ids.every((id) => Number.isInteger(id) && (id as number) >= 1 && (id as number) <= answers.length) || new Set(ids).size !== ids.length || ids.length === 0) {
      return fail('a theme names answers that do not exist');
    }
    if (!SENTIMENTS.includes(theme.sentiment as Sentiment)) return fail('a theme has no sentiment');
    if (!theme.quotes.every((q) => typeof q === 'string')) return fail('a quote is not a string');
    const indexes = (ids as number[]).map((id) => id - 1);
    members.push(indexes);
    const label = theme.label.trim().slice(0, 80);
    themes.push({
      label,
      count: indexes.length,
      share: indexes.length / answers.length,
      sentiment: theme.sentiment as Sentiment,
      option: leadingOption(answers, indexes).option,
      quotes: theme.quotes as string[],
    });
  }
  const s = raw.sentiment;
  const summary: Summary = {
    engine,
    takeaway: raw.takeaway.trim(),
    themes,
    sentiment: { positive: s.positive as number, neutral: s.neutral as number, negative: s.negative as number },
    basedOn: answers.length,
  };
  const problems = checkSummary(summary, answers, members);
  if (summary.takeaway.length > 500) problems.push('takeaway too long');
  if (problems.length) return { summary: null, problems };
  // Largest first, keeping the model's order among equals.
  const order = themes.map((_, i) => i).sort((a, b) => themes[b].count - themes[a].count || a - b);
  return { summary: { ...summary, themes: order.map((i) => themes[i]) }, problems: [] };
}

export function createRemoteEngine(api: ChatApi, fallback: InsightsEngine, log: { warn(obj: object, msg: string): void }, fetchImpl: Fetch = fetch): InsightsEngine {
  const engine = `openai-compatible:${api.model}`;
  return {
    async summarize(request) {
      const answers = writtenOf(request.answers);
      const chars = answers.reduce((sum, a) => sum + stringsOf(a).join('').length, 0);
      if (answers.length === 0 || answers.length > MAX_REMOTE_ANSWERS || chars > MAX_REMOTE_CHARS) return fallback.summarize(request);
      const payload = {
        question: request.questionText,
        options: request.options,
        language: request.sourceLanguage,
        // The written material only, numbered from 1.
        answers: answers.map((a, i) => ({ id: i + 1, option: a.option, text: a.text, reason: a.reason })),
      };
      try {
        const content = await chatCompletion(api, [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: JSON.stringify(payload) }], fetchImpl);
        const { summary, problems } = readRemoteSummary(content, request, engine);
        if (summary) return summary;
        log.warn({ problems: problems.slice(0, 5) }, 'insights engine answer refused; using the local engine');
      } catch (error) {
        log.warn({ err: error }, 'insights engine failed; using the local engine');
      }
      return fallback.summarize(request);
    },
  };
}
