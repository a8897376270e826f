import { describe, expect, it } from 'vitest';
import { compileFor } from '../../lib/validation.ts';
import { priceInputOf } from '../estimate/estimate.service.ts';
import { priceDraft } from '../draft/pricing.ts';
import { validateDraft } from '../draft/draft-validator.ts';
import { QUESTION_TYPES } from '../draft/question-types.ts';
import { TemplateDraftSchema } from '../draft/catalogue-entries.schemas.ts';
import { TEMPLATES } from '../draft/templates.data.ts';

/** GET /v1/templates: starting points a requester can ask as they stand (spec "Template"). */
const NOW = new Date('2026-06-01T12:00:00.000Z');
const ALWAYS_PRESENT = ['language', 'options', 'neither', 'n', 'tier', 'rush', 'publicResults', 'reason'] as const;

describe('TEMPLATES', () => {
  it('offers at least 8 templates with unique ids and names', () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(8);
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
    expect(new Set(TEMPLATES.map((t) => t.name)).size).toBe(TEMPLATES.length);
  });

  it('covers at least 8 of the 10 question types', () => {
    const types = new Set(TEMPLATES.map((t) => t.draft.type));
    for (const type of types) expect(QUESTION_TYPES).toContain(type);
    expect(types.size).toBeGreaterThanOrEqual(8);
  });

  it.each(TEMPLATES.map((t) => [t.id, t] as const))('%s has a name and a description', (_id, template) => {
    expect(template.id).toMatch(/^tpl_[a-z0-9_]+$/);
    expect(template.name.trim()).not.toBe('');
    expect(template.description.trim()).toMatch(/\S.*[.?!]$/);
  });

  it.each(TEMPLATES.map((t) => [t.id, t] as const))('%s can be asked as it stands: the validator finds no problem', (_id, template) => {
    expect(validateDraft(template.draft, { now: NOW })).toEqual([]);
  });

  it.each(TEMPLATES.map((t) => [t.id, t] as const))('%s carries the fields the spec says are always present', (_id, template) => {
    const draft = template.draft as Record<string, unknown>;
    for (const field of ALWAYS_PRESENT) expect(draft, field).toHaveProperty(field);
    expect(typeof draft.language).toBe('string');
    expect(Array.isArray(draft.options)).toBe(true);
    expect(typeof draft.neither).toBe('boolean');
    expect(Number.isInteger(draft.n)).toBe(true);
    expect([1, 2, 3]).toContain(draft.tier);
    expect(typeof draft.rush).toBe('boolean');
    expect(typeof draft.publicResults).toBe('boolean');
    expect(['off', 'optional', 'required']).toContain(draft.reason);
  });

  it('every template draft matches the Template draft schema of the response', () => {
    const check = compileFor('body', TemplateDraftSchema);
    for (const template of TEMPLATES) expect(check(template.draft), `${template.id}: ${JSON.stringify(check.errors)}`).toBe(true);
  });

  it('every template has a positive price in whole credits', () => {
    for (const template of TEMPLATES) {
      const price = priceDraft(priceInputOf(template.draft));
      expect(Number.isSafeInteger(price.creditsTotal) && price.creditsTotal > 0, template.id).toBe(true);
      expect(price.creditsTotal).toBe(price.creditsPerAnswer * template.draft.n);
    }
  });
});
