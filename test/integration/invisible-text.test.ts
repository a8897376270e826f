import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { askRaw, balanceOf, choiceDraft, errorOf, expectReconciled, fundedKey, getQuestion, NO_RATE_LIMITS, type Json } from '../helpers/questions.ts';

/**
 * Text no one can see (issue 8, point 9; docs/asking.md "Text", docs/answer-link.md): question
 * text, context, option labels, stimulus text and follow-up text are NFC-normalized and refuse
 * control characters (except tab and line breaks where text may run over lines) and the bidi
 * embedding, override and isolate characters, with an `invalid_format` item on the field, on
 * the ask and on the estimate alike; a written answer made only of invisible characters (zero-width
 * spaces and joiners, BOM, bidi marks, variation selectors) is not an answer, and nothing is charged.
 */

let t: TestApp;
let key: TestKey;

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS } });
  key = await fundedKey(t, 100_000);
});
afterAll(async () => {
  await t?.close();
});

const estimateOf = async (draft: Json): Promise<Json> => {
  const response = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/** Asks, expects 400 with exactly these items, and checks nothing was spent or created. */
async function refusedAsk(body: Json, items: Array<[string, string]>): Promise<void> {
  const before = (await balanceOf(t, key)).credits;
  const count = async () => (await t.db.selectFrom('questions').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', key.accountId).executeTakeFirstOrThrow()).n;
  const questions = Number(await count());
  const response = await askRaw(t, key, body);
  expect(response.statusCode, response.body).toBe(400);
  const error = errorOf(response);
  expect(error.code).toBe('validation_failed');
  expect(error.details.validation.map((i: Json) => [i.field, i.code])).toEqual(items);
  for (const item of error.details.validation) expect(item.message).toMatch(/U\+[0-9A-F]{4}|visible|blank|repeats|NUL/);
  expect((await balanceOf(t, key)).credits).toBe(before);
  expect(Number(await count())).toBe(questions);
}

describe('question text: control and bidi characters are refused on the ask and on the estimate', () => {
  const cases: Array<[string, Json, string]> = [
    ['a bell (U+0007) in the text', choiceDraft({ text: 'Which name is best?\u0007' }), 'draft.text'],
    ['a C1 control (U+0085) in the text', choiceDraft({ text: 'Which name\u0085 is best?' }), 'draft.text'],
    ['a right-to-left override (U+202E) in the text', choiceDraft({ text: 'Which name is \u202Etseb?' }), 'draft.text'],
    ['a left-to-right embedding (U+202A) in the context', choiceDraft({ context: '\u202AFor a savings app' }), 'draft.context'],
    ['a first-strong isolate (U+2068) in an option', choiceDraft({ options: [{ label: 'Penny' }, { label: '\u2068Pocket\u2069' }] }), 'draft.options[1].label'],
    ['a line feed in an option (labels are one line)', choiceDraft({ options: [{ label: 'Pen\nny' }, { label: 'Pocket' }] }), 'draft.options[0].label'],
    ['a tab in an option', choiceDraft({ options: [{ label: 'Penny' }, { label: 'Poc\tket' }] }), 'draft.options[1].label'],
    ['an escape (U+001B) in the stimulus text', { type: 'reaction', text: 'How does this make you feel?', options: [{ label: 'Good' }, { label: 'Bad' }], stimulus: { text: 'Brand new \u001B[31mred\u001B[0m look', exposureMs: 3000 }, n: 10 }, 'draft.stimulus.text'],
  ];

  it.each(cases)('%s: ask 400 with an invalid_format item on the field, nothing spent', async (_name, draft, field) => {
    await refusedAsk({ draft }, [[field, 'invalid_format']]);
  });

  it.each(cases)('%s: the estimate reports the same item', async (_name, draft, field) => {
    const body = await estimateOf(draft);
    expect(body.validation).toEqual([{ field, code: 'invalid_format', message: expect.stringMatching(/U\+[0-9A-F]{4}/) }]);
  });

  it('NUL and lone surrogates are refused by the JSON body reader itself, on the ask and the estimate alike (400 on the field)', async () => {
    for (const text of ['Which\u0000 name is best?', 'Which name is best? \uD83D']) {
      await refusedAsk({ draft: choiceDraft({ text }) }, [['draft.text', 'invalid_format']]);
      const response = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft: choiceDraft({ text }) } });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).details.validation).toEqual([expect.objectContaining({ field: 'draft.text', code: 'invalid_format' })]);
    }
  });

  it('a follow-up text with an isolate (U+2066) is refused on then[0].text', async () => {
    await refusedAsk({ draft: choiceDraft(), then: [{ text: 'Why did you \u2066choose\u2069 it?' }] }, [['then[0].text', 'invalid_format']]);
  });

  it('text made only of invisible characters is blank (required); so is a follow-up with fewer than 8 visible characters', async () => {
    const invisible = '\u200B\u200C\u200D\u2060\uFEFF\u200E\u200F\uFE0F\u00AD\u3164';
    await refusedAsk({ draft: choiceDraft({ text: invisible }) }, [['draft.text', 'required']]);
    expect((await estimateOf(choiceDraft({ text: invisible }))).validation).toEqual([expect.objectContaining({ field: 'draft.text', code: 'required' })]);
    await refusedAsk({ draft: choiceDraft({ options: [{ label: 'Penny' }, { label: '\u200B\u200B' }] }) }, [['draft.options[1].label', 'required']]);
    await refusedAsk({ draft: choiceDraft(), then: [{ text: `Why?${'\u200B'.repeat(10)}` }] }, [['then[0].text', 'too_short']]);
  });

  it('options that differ only by invisible characters repeat each other', async () => {
    await refusedAsk({ draft: choiceDraft({ options: [{ label: 'Penny' }, { label: 'Pen\u200Bny' }] }) }, [['draft.options[1].label', 'not_allowed']]);
  });

  it('the content check sees through invisible characters', async () => {
    const response = await askRaw(t, key, { draft: choiceDraft({ text: 'What is your pass\u200Bword for the app?' }) });
    expect(response.statusCode, response.body).toBe(422);
    expect(errorOf(response)).toMatchObject({ code: 'content_refused', details: { category: 'credentials', field: 'draft.text' } });
  });
});

describe('question text: normalized (NFC), ordinary whitespace kept', () => {
  it('decomposed accents are stored composed; line breaks and tabs stay in the text; CRLF becomes LF', async () => {
    const response = await askRaw(t, key, {
      draft: choiceDraft({
        text: 'Cafe\u0301 or the\u0301?\r\nPick one:\tthe first that comes to mind.',
        context: 'Menu\nboard',
        options: [{ label: 'Cafe\u0301' }, { label: 'The\u0301' }],
      }),
      then: [{ text: 'Pourquoi ce choix\u0301 ?\nDites-le en une phrase.' }],
    });
    expect(response.statusCode, response.body).toBe(201);
    const question = await getQuestion(t, key, response.json().question.id);
    expect(question.text).toBe('Café or thé?\nPick one:\tthe first that comes to mind.');
    expect(question.text).toBe(question.text.normalize('NFC'));
    expect(question.context).toBe('Menu\nboard');
    expect(question.options.map((o: Json) => o.label)).toEqual(['Café', 'Thé']);
    const [followUp] = await t.db.selectFrom('questions').select('draft').where('parent_id', '=', question.id).execute();
    expect((followUp.draft as Json).text).toBe('Pourquoi ce choix\u0301 ?\nDites-le en une phrase.'.normalize('NFC'));
    // Marks a script needs (zero-width joiner in an emoji, non-joiner in Persian) are kept.
    const kept = await askRaw(t, key, { draft: choiceDraft({ text: 'Which family emoji: 👨\u200D👩\u200D👧 or می\u200Cخواهم?' }) });
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json().question.text).toBe('Which family emoji: 👨\u200D👩\u200D👧 or می\u200Cخواهم?');
  });

  it('an estimate counts length after NFC, as the ask does', async () => {
    // 40 composed characters, 80 code points before NFC: a label that fits.
    const label = 'e\u0301'.repeat(40);
    const draft = choiceDraft({ options: [{ label }, { label: 'Pocket' }] });
    expect((await estimateOf(draft)).validation).toEqual([]);
  });
});

describe('written answers: only visible characters count', () => {
  let question: Json;
  beforeAll(async () => {
    const response = await askRaw(t, key, { draft: { type: 'free_text', text: 'What would make you switch banks?', n: 10 } });
    expect(response.statusCode, response.body).toBe(201);
    question = response.json().question;
  });

  const submit = (answer: Json) =>
    t.inject({ method: 'POST', url: `/v1/public/link/${question.linkCode}/answers`, payload: { answer, nonce: randomUUID(), dwellMs: 3000 }, remoteAddress: `198.51.100.${Math.floor(Math.random() * 250) + 1}` });

  it.each([
    ['a zero-width space', '\u200B'],
    ['zero-width joiners and non-joiners', '\u200D\u200C\u200D'],
    ['a byte-order mark', '\uFEFF'],
    ['bidi marks and isolates', '\u200E\u200F\u2066\u2069\u202E'],
    ['variation selectors', '\uFE0F\uFE0E'],
    ['word joiners and a soft hyphen among spaces', ' \u2060 \u00AD \u3000 '],
    ['control characters', '\u0007\u001B\u007F\u0085'],
  ])('an answer of only %s is refused (400 answer.text required) and nothing is charged', async (_name, text) => {
    const before = await getQuestion(t, key, question.id);
    const response = await submit({ text });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response)).toMatchObject({ code: 'validation_failed', details: { validation: [{ field: 'answer.text', code: 'required' }] } });
    const after = await getQuestion(t, key, question.id);
    expect(after).toMatchObject({ answered: before.answered, creditsSpent: before.creditsSpent });
  });

  it('a real answer is stored NFC, with control and bidi-override characters taken out and line breaks kept', async () => {
    const response = await submit({ text: '\u200B Lower fe\u0301es\u0008\r\nand a \u202Ebetter\u202C app\u0007 \uFEFF' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().accepted).toBe(true);
    const result = await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/result`, headers: key.auth });
    const texts = result.json().result.answers.map((a: Json) => a.text);
    expect(texts).toContain('Lower fées\nand a better app');
    // The answer object kept with it carries the same cleaned text, not what was sent.
    const stored = await t.db.selectFrom('answers').select('answer').where('question_id', '=', question.id).execute();
    expect(stored.map((r) => (r.answer as Json).text)).toContain('Lower fées\nand a better app');
    expect(await getQuestion(t, key, question.id)).toMatchObject({ answered: 1 });
    await expectReconciled(t);
  });

  it('a reason made only of invisible characters does not count as a reason', async () => {
    const response = await askRaw(t, key, { draft: choiceDraft({ reason: 'required' }) });
    const q = response.json().question;
    const reply = await t.inject({ method: 'POST', url: `/v1/public/link/${q.linkCode}/answers`, payload: { answer: { option: 0, reason: '\u200B\u2060\uFEFF' }, nonce: randomUUID() } });
    expect(reply.statusCode, reply.body).toBe(400);
    expect(errorOf(reply).details.validation).toEqual([expect.objectContaining({ field: 'answer.reason', code: 'required' })]);
    expect(await getQuestion(t, key, q.id)).toMatchObject({ answered: 0, creditsSpent: 0 });
  });
});
